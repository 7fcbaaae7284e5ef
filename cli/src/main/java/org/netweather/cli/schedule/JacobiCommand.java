package org.netweather.cli.schedule;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.Output;
import org.netweather.cli.output.TimeArgs;
import org.netweather.scheduler.frame.ResourceSnapshot;
import org.netweather.scheduler.jacobi.HostChain;
import org.netweather.scheduler.jacobi.JacobiDemonstrator;
import org.netweather.scheduler.jacobi.JacobiOptions;
import org.netweather.scheduler.jacobi.JacobiProblem;
import org.netweather.scheduler.jacobi.JacobiSchedule;
import org.netweather.scheduler.jacobi.JacobiSchedule.Candidate;
import org.netweather.scheduler.jacobi.JacobiScheduler;
import org.netweather.scheduler.jacobi.StripModel;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nws schedule jacobi}: hosts and strip widths for an N×N Jacobi2D grid. */
@Command(
    name = "jacobi",
    description = {
      "AppLeS Jacobi2D strip partitioning (Berman et al., SC'96): choose hosts by logical "
          + "distance from a locus and strip widths that finish each iteration together.",
      "Hosts need a secondsPerPoint parameter (dedicated CPU seconds per grid point) and a CPU "
          + "availability forecast; see the snapshot file format in docs/cli.md."
    })
public final class JacobiCommand implements Callable<Integer> {
  private static final int TEXT_CANDIDATES = 20;

  @Spec CommandSpec spec;
  @Mixin ConnectionOptions connection;

  @ArgGroup(exclusive = true, multiplicity = "1")
  SnapshotSource source;

  @Option(
      names = "--size",
      paramLabel = "N",
      description = "Grid size N (default: the snapshot's 'size' parameter).")
  Integer size;

  @Option(
      names = "--locus",
      paramLabel = "HOST",
      description = "Start the resource list here (default: the fastest host).")
  String locus;

  @Option(
      names = "--order",
      paramLabel = "chain|locus",
      defaultValue = "chain",
      description = "chain: nearest to the list's tail (default); locus: nearest to the locus.")
  String order;

  @Option(
      names = "--solver",
      paramLabel = "capped|apples",
      defaultValue = "capped",
      description =
          "capped: memory-capped water-filling when the closed form fails its "
              + "filters (default); apples: the paper's closed form and filters only.")
  String solver;

  @Option(
      names = "--max-distance",
      paramLabel = "SECONDS",
      description = "Stop the list at the first host farther than this from the locus.")
  Double maxDistance;

  @Option(
      names = "--error-margin",
      paramLabel = "Z",
      defaultValue = "0",
      description =
          "Plan with P·(1 + Z·mae/availability): robust to forecast error "
              + "(default: ${DEFAULT-VALUE}).")
  double errorMargin;

  @Option(
      names = "--horizon",
      paramLabel = "SPAN",
      description =
          "With --cluster: plan on each host's forecast CPU availability averaged over the next"
              + " SPAN (90s, 10m, 2h), the job's expected run time, and on that forecast's error"
              + " for --error-margin, instead of the next measurement's.")
  String horizon;

  @Option(
      names = "--demonstrate",
      paramLabel = "ITERATIONS",
      description =
          "Then run this many real Jacobi iterations on local threads with the "
              + "chosen widths and print predicted against measured times.")
  Integer demonstrate;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  @Override
  public Integer call() {
    ResourceSnapshot snapshot =
        source.load(connection, horizon == null ? 0 : TimeArgs.span("--horizon", horizon));
    JacobiProblem problem = JacobiProblem.from(snapshot, size);
    JacobiOptions options = options();
    JacobiSchedule schedule = JacobiScheduler.schedule(snapshot, problem, options);
    JacobiDemonstrator.Report demo = null;
    if (demonstrate != null && schedule.feasible()) {
      if (demonstrate < 1) {
        throw new IllegalArgumentException("--demonstrate: need at least one iteration");
      }
      demo =
          JacobiDemonstrator.run(
              schedule, new StripModel(snapshot, problem, options.errorMargin()), demonstrate);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(JsonWriter.write(document(snapshot, schedule, options, demo)));
    } else {
      print(snapshot, schedule, options, out);
      if (demo != null) {
        out.println();
        JacobiDemonstrator.print(demo, out);
      }
    }
    out.flush();
    return schedule.feasible() ? 0 : 1;
  }

  private JacobiOptions options() {
    JacobiOptions o = JacobiOptions.defaults().withLocus(locus).withErrorMargin(errorMargin);
    o =
        switch (order) {
          case "chain" -> o.withOrdering(HostChain.Ordering.CHAIN);
          case "locus" -> o.withOrdering(HostChain.Ordering.LOCUS_DISTANCE);
          default ->
              throw new IllegalArgumentException(
                  "--order: expected chain or locus, got '" + order + "'");
        };
    o =
        switch (solver) {
          case "capped" -> o.withSolver(JacobiOptions.Solver.MEMORY_CAPPED);
          case "apples" -> o.withSolver(JacobiOptions.Solver.APPLES);
          default ->
              throw new IllegalArgumentException(
                  "--solver: expected capped or apples, got '" + solver + "'");
        };
    if (maxDistance != null) {
      if (!(maxDistance > 0)) {
        throw new IllegalArgumentException("--max-distance: must be positive");
      }
      o = o.withMaxDistance(maxDistance);
    }
    return o;
  }

  private void print(
      ResourceSnapshot snapshot, JacobiSchedule s, JacobiOptions o, PrintWriter out) {
    out.printf(
        "Jacobi %dx%d on %s (%s): %s%n",
        s.size(),
        s.size(),
        cluster(snapshot),
        source.describe(),
        s.feasible() ? s.hosts().size() + " strips" : "no feasible schedule");
    if (s.feasible()) {
      Output.Table t = new Output.Table("STRIP", "HOST", "WIDTH", "SECONDS");
      for (int i = 0; i < s.hosts().size(); i++) {
        t.row(i + 1, s.hosts().get(i), s.widths().get(i), fmt(s.stripSeconds().get(i)));
      }
      t.print(out);
      out.printf(
          "predicted iteration time: %s s (balanced before rounding: %s s)%n",
          fmt(s.predictedSeconds()), fmt(s.balancedSeconds()));
    }
    if (s.locus() != null) {
      out.println();
      out.printf(
          "resource list from locus %s (%s, %s solver): %s%n",
          s.locus(),
          o.ordering() == HostChain.Ordering.CHAIN
              ? "chained from the tail"
              : "by distance to the locus",
          o.solver() == JacobiOptions.Solver.APPLES ? "AppLeS" : "memory-capped",
          abbreviate(s.list()));
      Output.Table t = new Output.Table("K", "HOSTS", "BALANCED (s)", "PREDICTED (s)", "VERDICT");
      List<Candidate> cs = s.candidates();
      for (int i = 0; i < Math.min(cs.size(), TEXT_CANDIDATES); i++) {
        Candidate c = cs.get(i);
        t.row(
            c.k(),
            abbreviate(c.hosts()),
            fmt(c.balancedSeconds()),
            c.accepted() ? fmt(c.predictedSeconds()) : "-",
            c.verdict());
      }
      t.print(out);
      if (cs.size() > TEXT_CANDIDATES) {
        out.printf("... %d more candidates (--json lists all)%n", cs.size() - TEXT_CANDIDATES);
      }
    }
    if (!s.excluded().isEmpty()) {
      out.println();
      s.excluded().forEach((h, why) -> out.println("excluded " + h + ": " + why));
    }
  }

  private Map<String, Object> document(
      ResourceSnapshot snapshot,
      JacobiSchedule s,
      JacobiOptions o,
      JacobiDemonstrator.Report demo) {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("cluster", cluster(snapshot));
    d.put("size", s.size());
    d.put("feasible", s.feasible());
    d.put("hosts", s.hosts());
    d.put("widths", s.widths());
    d.put("stripSeconds", s.stripSeconds());
    d.put("predictedSeconds", s.feasible() ? s.predictedSeconds() : null);
    d.put("balancedSeconds", s.feasible() ? s.balancedSeconds() : null);
    d.put("locus", s.locus());
    d.put("ordering", o.ordering() == HostChain.Ordering.CHAIN ? "chain" : "locus");
    d.put("solver", o.solver() == JacobiOptions.Solver.APPLES ? "apples" : "capped");
    d.put("list", s.list());
    List<Map<String, Object>> cands = new ArrayList<>();
    for (Candidate c : s.candidates()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("k", c.k());
      // The hosts are the first k of "list" unless the capped solver dropped or re-chained.
      List<String> prefix = s.list().subList(0, c.k());
      if (!prefix.equals(c.hosts())) {
        m.put("hosts", c.hosts());
      }
      m.put("balancedSeconds", c.balancedSeconds());
      m.put("predictedSeconds", c.accepted() ? c.predictedSeconds() : null);
      m.put("verdict", c.verdict());
      cands.add(m);
    }
    d.put("candidates", cands);
    d.put("excluded", s.excluded());
    if (demo != null) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("iterations", demo.iterations());
      m.put("localSecondsPerPoint", demo.localSecondsPerPoint());
      m.put("scale", demo.scale());
      m.put("cores", demo.cores());
      m.put("predictedSeconds", demo.predictedSeconds());
      m.put("measuredSeconds", demo.measuredSeconds());
      m.put(
          "stripPredictedSeconds",
          demo.strips().stream().map(JacobiDemonstrator.StripRun::predictedSeconds).toList());
      m.put(
          "stripMeasuredSeconds",
          demo.strips().stream().map(JacobiDemonstrator.StripRun::measuredSeconds).toList());
      d.put("demonstration", m);
    }
    return d;
  }

  private static String cluster(ResourceSnapshot s) {
    return s.cluster().isEmpty() ? "(unnamed cluster)" : s.cluster();
  }

  private static String abbreviate(List<String> hosts) {
    if (hosts.size() <= 8) {
      return String.join(" ", hosts);
    }
    return String.join(" ", hosts.subList(0, 3))
        + " ... "
        + hosts.get(hosts.size() - 1)
        + " ("
        + hosts.size()
        + ")";
  }

  static String fmt(double v) {
    return Double.isNaN(v) ? "-" : Output.number(v);
  }
}
