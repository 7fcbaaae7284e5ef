package org.netweather.cli.schedule;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.cli.output.JsonWriter;
import org.netweather.scheduler.cluster.LatencyClustering;
import org.netweather.scheduler.cluster.LatencyMatrix;
import org.netweather.scheduler.cluster.LatencyMatrixReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nws cluster}: logical clusters of hosts from a latency matrix (Nasri et al., CCGrid'07,
 * phase 1).
 *
 * <pre>{@code
 * nws cluster --latency-matrix lat.csv --bound 0.2 --json
 * {"clusters": [["orsay-1", ...], ["grenoble-1", ...], ...]}
 * }</pre>
 */
@Command(
    name = "cluster",
    description = {
      "Group hosts into logical clusters whose internal latencies stay within a relative bound "
          + "of each member's nearest-neighbour latency (complete link).",
      "FILE is CSV: host names in the first row and column, latencies in any one unit, the "
          + "diagonal ignored, empty cells unmeasured."
    })
public final class ClusterCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--latency-matrix",
      paramLabel = "FILE",
      required = true,
      description = "The latency matrix (CSV).")
  Path matrix;

  @Option(
      names = "--bound",
      paramLabel = "RHO",
      defaultValue = "0.2",
      description = "Relative latency bound (default: ${DEFAULT-VALUE}).")
  double bound;

  @Option(
      names = "--symmetry",
      paramLabel = "max|mean",
      defaultValue = "max",
      description = "How to combine lat(a,b) and lat(b,a) (default: ${DEFAULT-VALUE}).")
  String symmetry;

  @Option(names = "--json", description = "Print a JSON document with the key 'clusters'.")
  boolean json;

  @Override
  public Integer call() {
    LatencyMatrix.Symmetry sym =
        switch (symmetry.toLowerCase(Locale.ROOT)) {
          case "max" -> LatencyMatrix.Symmetry.MAX;
          case "mean" -> LatencyMatrix.Symmetry.MEAN;
          default ->
              throw new IllegalArgumentException(
                  "--symmetry: expected max or mean, got '" + symmetry + "'");
        };
    List<List<String>> clusters =
        LatencyClustering.clusterNames(LatencyMatrixReader.read(matrix, sym), bound);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(JsonWriter.write(Map.of("clusters", clusters)));
    } else {
      out.printf("%d logical clusters (bound %.0f %%)%n", clusters.size(), bound * 100);
      for (int c = 0; c < clusters.size(); c++) {
        out.printf(
            "  %2d  %3d host%s  %s%n",
            c + 1,
            clusters.get(c).size(),
            clusters.get(c).size() == 1 ? " " : "s",
            String.join(" ", clusters.get(c)));
      }
    }
    out.flush();
    return 0;
  }
}
