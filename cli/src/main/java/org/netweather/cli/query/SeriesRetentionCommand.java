package org.netweather.cli.query;

import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.api.v1.RetentionRequest;
import org.netweather.api.v1.RetentionResponse;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.Output;
import org.netweather.client.NetWeatherClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nws series retention [--max-points N] [--max-age-hours H]}: raw-point retention. */
@Command(
    name = "retention",
    description =
        "Show or set how many raw points each series"
            + " keeps, and for how long, on every memory-host (older points stay in the archives).")
public class SeriesRetentionCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Option(
      names = "--max-points",
      paramLabel = "N",
      description = "Raw points kept per series (at least 1000).")
  Long maxPoints;

  @Option(
      names = "--max-age-hours",
      paramLabel = "H",
      description = "Drop raw points older than H hours (at least 1; 0: no age limit).")
  Long maxAgeHours;

  @Option(names = "--json", description = "Print a JSON document per memory-host.")
  boolean json;

  @Override
  public Integer call() {
    RetentionRequest.Builder req = RetentionRequest.newBuilder();
    if (maxPoints != null) {
      req.setMaxPoints(maxPoints);
    }
    if (maxAgeHours != null) {
      req.setMaxAgeSeconds(maxAgeHours * 3600);
    }
    try (NetWeatherClient client = connection.open()) {
      Map<String, RetentionResponse> byHost = client.retention(req.build());
      var out = spec.commandLine().getOut();
      if (json) {
        for (RetentionResponse r : byHost.values()) {
          out.println(Output.json(r.toBuilder()));
        }
      } else {
        Output.Table t = new Output.Table("MEMORY-HOST", "MAX POINTS", "MAX AGE");
        for (Map.Entry<String, RetentionResponse> e : byHost.entrySet()) {
          long age = e.getValue().getMaxAgeSeconds();
          t.row(e.getKey(), e.getValue().getMaxPoints(), age == 0 ? "-" : (age / 3600) + " h");
        }
        t.print(out);
      }
      out.flush();
      return 0;
    }
  }
}
