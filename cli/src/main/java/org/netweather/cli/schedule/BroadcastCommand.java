package org.netweather.cli.schedule;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.JsonWriter;
import org.netweather.scheduler.cluster.BroadcastPlatform;
import org.netweather.scheduler.cluster.EcefScheduler;
import org.netweather.scheduler.cluster.FlatBinomial;
import org.netweather.scheduler.cluster.HierarchicalBroadcast;
import org.netweather.scheduler.cluster.ModelSelector;
import org.netweather.scheduler.cluster.SnapshotPlatform;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nws schedule broadcast}: a two-level broadcast plan against a flat binomial tree. */
@Command(
    name = "broadcast",
    description = {
      "Plan a broadcast of BYTES over latency-based logical clusters (Nasri, Steffenel, "
          + "Trystram): a model and algorithm per cluster, ECEF between cluster coordinators, "
          + "and the predicted completion time next to a grid-unaware binomial tree's."
    })
public final class BroadcastCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ConnectionOptions connection;

  @ArgGroup(exclusive = true, multiplicity = "1")
  SnapshotSource source;

  @Option(
      names = "--size",
      paramLabel = "BYTES",
      required = true,
      description = "Message size in bytes.")
  long size;

  @Option(names = "--root", paramLabel = "HOST", description = "The root (default: first host).")
  String root;

  @Option(
      names = "--bound",
      paramLabel = "RHO",
      defaultValue = "0.2",
      description = "Clustering bound (default: ${DEFAULT-VALUE}).")
  double bound;

  @Option(
      names = "--gap-us",
      paramLabel = "US",
      defaultValue = "10",
      description =
          "Per-message gap g(0) in µs until pLogP series are measured "
              + "(default: ${DEFAULT-VALUE}).")
  double gapMicros;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  @Override
  public Integer call() {
    if (size < 0) {
      throw new IllegalArgumentException("--size must be >= 0");
    }
    BroadcastPlatform p =
        SnapshotPlatform.of(source.load(connection), bound, root, gapMicros * 1e-6);
    double bytes = (double) size;
    HierarchicalBroadcast.Plan plan = HierarchicalBroadcast.plan(p, bytes);
    double contiguous = FlatBinomial.contiguous(p, bytes);
    double random = FlatBinomial.random(p, bytes, 200, 1);
    PrintWriter out = spec.commandLine().getOut();
    List<String> coordinators = p.clusters().stream().map(c -> p.hosts().get(c.get(0))).toList();
    if (json) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("bytes", size);
      List<Object> cs = new ArrayList<>();
      for (int c = 0; c < p.clusters().size(); c++) {
        ModelSelector.Choice ch = plan.perCluster().get(c);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("hosts", p.clusters().get(c).stream().map(p.hosts()::get).toList());
        m.put("model", ch.model().name());
        m.put("algorithm", ch.algorithm().label());
        m.put("segments", ch.plan().segments());
        m.put("seconds", ch.plan().time());
        cs.add(m);
      }
      d.put("clusters", cs);
      List<Object> sched = new ArrayList<>();
      for (EcefScheduler.Transfer t : plan.inter().transfers()) {
        sched.add(
            Map.of(
                "from",
                coordinators.get(t.sender()),
                "to",
                coordinators.get(t.receiver()),
                "start",
                t.start(),
                "arrival",
                t.arrival()));
      }
      d.put("interCluster", Map.of("heuristic", plan.inter().variant().name(), "sends", sched));
      d.put("predictedSeconds", plan.makespan());
      d.put("flatBinomialSeconds", Map.of("contiguousRanks", contiguous, "randomRanks", random));
      out.println(JsonWriter.write(d));
    } else {
      out.printf(
          "broadcast of %d bytes over %s: %d hosts in %d logical clusters%n",
          size, source.describe(), p.hosts().size(), p.clusters().size());
      for (int c = 0; c < p.clusters().size(); c++) {
        ModelSelector.Choice ch = plan.perCluster().get(c);
        out.printf(
            "  cluster %d: %3d host(s), coordinator %-12s model %-7s %-8s%s %10.1f µs%n",
            c + 1,
            p.clusters().get(c).size(),
            coordinators.get(c),
            ch.model().name(),
            ch.algorithm().label(),
            ch.plan().segments() > 1 ? " (" + ch.plan().segments() + " segments)" : "",
            ch.plan().time() * 1e6);
      }
      out.printf("inter-cluster schedule (%s):%n", plan.inter().variant());
      for (EcefScheduler.Transfer t : plan.inter().transfers()) {
        out.printf(
            "  %-12s -> %-12s start %10.1f µs  arrives %10.1f µs%n",
            coordinators.get(t.sender()),
            coordinators.get(t.receiver()),
            t.start() * 1e6,
            t.arrival() * 1e6);
      }
      out.printf(
          "predicted completion: %.1f µs; grid-unaware binomial %.1f µs (ranks by "
              + "cluster), %.1f µs (random ranks): %.2fx / %.2fx%n",
          plan.makespan() * 1e6,
          contiguous * 1e6,
          random * 1e6,
          contiguous / plan.makespan(),
          random / plan.makespan());
    }
    out.flush();
    return 0;
  }
}
