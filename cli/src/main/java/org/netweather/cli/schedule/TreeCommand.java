package org.netweather.cli.schedule;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.Output;
import org.netweather.scheduler.tree.ChildPriority;
import org.netweather.scheduler.tree.Protocol;
import org.netweather.scheduler.tree.SendModel;
import org.netweather.scheduler.tree.TaskFarmSimulator;
import org.netweather.scheduler.tree.TaskSpec;
import org.netweather.scheduler.tree.ThroughputBound;
import org.netweather.scheduler.tree.TreeNode;
import org.netweather.scheduler.tree.TreeReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nws schedule tree}: interference-aware priorities, exclusions and bounds on a tree. */
@Command(
    name = "tree",
    description = {
      "Interference-aware task farming on a tree overlay (Kreaseck et al.): which children a "
          + "parent serves first, which never (IR_s·Z·C >= 1), and the steady-state throughput "
          + "bound; with --simulate, each protocol's makespan relative to RootComputes.",
      "The tree file format is described in docs/cli.md (and TreeReader's javadoc)."
    })
public final class TreeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--tree",
      paramLabel = "FILE",
      required = true,
      description = "The tree overlay (JSON).")
  Path tree;

  @Option(names = "--task-mb", paramLabel = "Z", required = true, description = "MB sent per task.")
  double taskMb;

  @Option(
      names = "--task-compute",
      paramLabel = "D",
      required = true,
      description = "Compute units per task (the tree's computeRate unit, e.g. diagonals).")
  double taskCompute;

  @Option(
      names = "--port",
      paramLabel = "multi|single",
      defaultValue = "multi",
      description = "Send model for priorities and the bound (default: ${DEFAULT-VALUE}).")
  String port;

  @Option(
      names = "--simulate",
      paramLabel = "TASKS",
      description = "Simulate every protocol with this many tasks.")
  Integer simulate;

  @Option(
      names = "--buffers",
      paramLabel = "N",
      defaultValue = "2",
      description = "Simulated task slots per non-root node (default: ${DEFAULT-VALUE}).")
  int buffers;

  @Option(
      names = "--chunk-mb",
      paramLabel = "MB",
      defaultValue = "0.5",
      description = "IA:Multi's interruptible chunk (default: ${DEFAULT-VALUE}).")
  double chunkMb;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  @Override
  public Integer call() {
    SendModel model =
        switch (port) {
          case "multi" -> SendModel.MULTI_PORT;
          case "single" -> SendModel.SINGLE_PORT;
          default ->
              throw new IllegalArgumentException(
                  "--port: expected multi or single, got '" + port + "'");
        };
    TaskSpec task = new TaskSpec(taskMb, taskCompute);
    TreeNode root = TreeReader.read(tree);
    ChildPriority.Ranking ranking = ChildPriority.rank(root, task, model);
    ThroughputBound.Result bound = ThroughputBound.of(root, task, model);
    ThroughputBound.Result multi = ThroughputBound.of(root, task, SendModel.MULTI_PORT);
    ThroughputBound.Result single = ThroughputBound.of(root, task, SendModel.SINGLE_PORT);
    Map<Protocol, TaskFarmSimulator.Result> runs = new LinkedHashMap<>();
    if (simulate != null) {
      if (simulate < 1) {
        throw new IllegalArgumentException("--simulate: need at least one task");
      }
      TaskFarmSimulator.Settings settings = new TaskFarmSimulator.Settings(buffers, chunkMb);
      for (Protocol p : Protocol.values()) {
        runs.put(p, TaskFarmSimulator.run(root, task, simulate, p, settings));
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("root", root.name());
      d.put("taskMb", taskMb);
      d.put("taskCompute", taskCompute);
      d.put("sendModel", port);
      d.put("priority", ranking.priorityNames());
      d.put("excluded", ranking.excludedNames());
      d.put("throughputBound", bound.tasksPerSecond());
      d.put("rootComputesRate", bound.rootRate());
      d.put("normalisedTime", bound.normalisedTime());
      d.put(
          "bounds",
          Map.of("multiPort", multi.tasksPerSecond(), "singlePort", single.tasksPerSecond()));
      d.put("children", children(root, task, bound));
      d.put("priorities", priorities(root, task, model));
      if (!runs.isEmpty()) {
        d.put("simulation", simulation(runs));
      }
      out.println(JsonWriter.write(d));
    } else {
      print(root, task, model, ranking, bound, multi, single, runs, out);
    }
    out.flush();
    return 0;
  }

  @SuppressWarnings("ReferenceEquality") // the root node itself, whose ranking is already known
  private void print(
      TreeNode root,
      TaskSpec task,
      SendModel model,
      ChildPriority.Ranking ranking,
      ThroughputBound.Result bound,
      ThroughputBound.Result multi,
      ThroughputBound.Result single,
      Map<Protocol, TaskFarmSimulator.Result> runs,
      PrintWriter out) {
    out.printf(
        "tree %s (%d nodes), task %s MB / %s compute units: the root alone computes %s "
            + "tasks/s%n",
        root.name(),
        root.preorder().size(),
        Output.number(taskMb),
        Output.number(taskCompute),
        Output.number(bound.rootRate()));
    for (TreeNode n : root.preorder()) {
      if (n.isLeaf()) {
        continue;
      }
      ChildPriority.Ranking r = n == root ? ranking : ChildPriority.rank(n, task, model);
      out.printf(
          "priority at %s (%s): %s%n",
          n.name(),
          model == SendModel.MULTI_PORT
              ? "multi-port, lowest IR_s first"
              : "single-port, largest B_r·(1 − a) first",
          r.priority().isEmpty() ? "(none)" : String.join(" ", r.priorityNames()));
      out.printf(
          "excluded at %s (a = IR_s·Z·C >= 1): %s%n",
          n.name(), r.excluded().isEmpty() ? "(none)" : String.join(" ", r.excludedNames()));
    }
    Output.Table t =
        new Output.Table(
            "CHILD", "IR_S", "A=IR_S·Z·C", "B_R·(1-A)", "SUBTREE BOUND", "SENT IN BOUND");
    for (Map<String, Object> c : children(root, task, bound)) {
      t.row(
          c.get("name"),
          num(c.get("sendInterference")),
          num(c.get("offloadCost")),
          num(c.get("singlePortValue")),
          num(c.get("subtreeBound")),
          num(c.get("used")));
    }
    t.print(out);
    out.printf(
        "throughput bound: %s tasks/s (%s-port; time %s of RootComputes); multi-port %s,"
            + " single-port %s%n",
        Output.number(bound.tasksPerSecond()),
        model == SendModel.MULTI_PORT ? "multi" : "single",
        Output.number(bound.normalisedTime()),
        Output.number(multi.tasksPerSecond()),
        Output.number(single.tasksPerSecond()));
    if (!runs.isEmpty()) {
      double base = runs.get(Protocol.ROOT_COMPUTES).makespan();
      out.println();
      out.printf("simulated %d tasks:%n", runs.get(Protocol.ROOT_COMPUTES).tasks());
      Output.Table s = new Output.Table("PROTOCOL", "MAKESPAN (s)", "/ ROOTCOMPUTES", "SENDS");
      for (TaskFarmSimulator.Result r : runs.values()) {
        s.row(
            r.protocol().label(),
            Output.number(r.makespan()),
            String.format(java.util.Locale.ROOT, "%.3f", r.makespan() / base),
            r.sends());
      }
      s.print(out);
    }
  }

  private static String num(Object v) {
    return v instanceof Double d ? Output.number(d) : String.valueOf(v);
  }

  private static List<Map<String, Object>> children(
      TreeNode root, TaskSpec task, ThroughputBound.Result bound) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (TreeNode c : root.children()) {
      Map<String, Object> m = new LinkedHashMap<>();
      double a = ChildPriority.offloadCost(root, c, task);
      m.put("name", c.name());
      m.put("sendInterference", c.sendInterference());
      m.put("offloadCost", a);
      m.put("singlePortValue", ChildPriority.singlePortValue(root, c, task));
      m.put("excluded", a >= 1);
      m.put("subtreeBound", bound.subtree().get(c.name()));
      m.put("used", bound.sent().getOrDefault(c.name(), 0.0));
      list.add(m);
    }
    return list;
  }

  private static Map<String, Object> priorities(TreeNode root, TaskSpec task, SendModel model) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (TreeNode n : root.preorder()) {
      if (!n.isLeaf()) {
        m.put(n.name(), ChildPriority.rank(n, task, model).priorityNames());
      }
    }
    return m;
  }

  private static Map<String, Object> simulation(Map<Protocol, TaskFarmSimulator.Result> runs) {
    double base = runs.get(Protocol.ROOT_COMPUTES).makespan();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("tasks", runs.get(Protocol.ROOT_COMPUTES).tasks());
    Map<String, Object> byProtocol = new LinkedHashMap<>();
    for (TaskFarmSimulator.Result r : runs.values()) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("makespanSeconds", r.makespan());
      p.put("normalised", r.makespan() / base);
      p.put("sends", r.sends());
      p.put("computed", r.computed());
      byProtocol.put(r.protocol().label(), p);
    }
    m.put("protocols", byProtocol);
    return m;
  }
}
