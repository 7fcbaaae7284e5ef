package org.netweather.scheduler.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simulator against hand calculations and against the findings of Kreaseck et al. §4.3. */
class TaskFarmSimulatorTest {
  private static final TaskFarmSimulator.Settings DEFAULTS = TaskFarmSimulator.Settings.defaults();
  private static List<ApplicationSweep.Row> sweep;

  @BeforeAll
  static void runTheEighteenTypes() {
    sweep = ApplicationSweep.sweep(Table4.example(), 1000, DEFAULTS);
    System.out.println(
        "The 18 application types on examples/tree/table4.json, 1000 tasks, "
            + "makespan / RootComputes:");
    ApplicationSweep.print(sweep, new PrintWriter(System.out, true, Charset.defaultCharset()));
  }

  @Test
  void run_rootComputes_takesTasksOverTheRootRate() {
    TaskFarmSimulator.Result r =
        TaskFarmSimulator.run(
            Table4.example(), new TaskSpec(2, 3), 1000, Protocol.ROOT_COMPUTES, DEFAULTS);
    assertEquals(1000 * 3 / 9.0645, r.makespan(), 1e-6);
    assertEquals(0, r.sends());
    assertEquals(1000, r.computed().get("Lab0"));
  }

  @Test
  void run_twinWithFreeLink_halvesTheMakespan() {
    // Child as fast as the root, an instant link and no interference: each does half.
    TreeNode root =
        TreeNode.root("r", 1, Double.POSITIVE_INFINITY, List.of(TreeNode.leaf("c", 1, 1e9, 0, 0)));
    TaskFarmSimulator.Result r =
        TaskFarmSimulator.run(root, new TaskSpec(1, 1), 100, Protocol.IA_SINGLE, DEFAULTS);
    assertEquals(50, r.makespan(), 1e-6);
    assertEquals(Map.of("r", 50, "c", 50), r.computed());
  }

  @Test
  void run_interference_slowsTheRootWhileItSends() {
    // At t = 0 the root starts one task and sends the other: 1 MB at 1 MB/s with IR_s = 0.5
    // halves its rate for that second, so it is half done at 1 s and done at 1.5 s. The child
    // computes its task at once on arrival.
    TreeNode root =
        TreeNode.root(
            "r", 1, Double.POSITIVE_INFINITY, List.of(TreeNode.leaf("c", 1e9, 1, 0.5, 0)));
    TaskFarmSimulator.Result r =
        TaskFarmSimulator.run(
            root,
            new TaskSpec(1, 1),
            2,
            Protocol.IA_SINGLE,
            new TaskFarmSimulator.Settings(1, 0.5));
    assertEquals(1.5, r.makespan(), 1e-9);
    assertEquals(Map.of("r", 1, "c", 1), r.computed());
  }

  @Test
  void run_everyProtocol_computesEveryTaskDeterministically() {
    TreeNode root = Table4.example();
    for (Protocol p : Protocol.values()) {
      TaskFarmSimulator.Result a =
          TaskFarmSimulator.run(root, new TaskSpec(5, 5), 300, p, DEFAULTS);
      TaskFarmSimulator.Result b =
          TaskFarmSimulator.run(root, new TaskSpec(5, 5), 300, p, DEFAULTS);
      assertEquals(300, a.computed().values().stream().mapToInt(Integer::intValue).sum(), "" + p);
      assertEquals(a, b, "" + p);
    }
  }

  @Test
  void run_iaMulti_interruptsLowerPrioritySends() {
    TaskFarmSimulator.Result r =
        TaskFarmSimulator.run(
            Table4.example(), new TaskSpec(2, 11), 1000, Protocol.IA_MULTI, DEFAULTS);
    assertTrue(r.preemptions() > 0);
  }

  @Test
  void sweep_interferenceAwarePriorities_beatFcfsAndCompRateOnEveryNonDegenerateType() {
    for (ApplicationSweep.Row row : sweep) {
      if (row.sizeMb() == 10 && row.compute() == 1) {
        continue;
      }
      Map<Protocol, Double> t = row.normalised();
      for (Protocol ia : List.of(Protocol.IA_SINGLE, Protocol.IA_MULTI)) {
        for (Protocol other : List.of(Protocol.FCFS, Protocol.COMP_RATE)) {
          assertTrue(
              t.get(ia) < t.get(other),
              ia + " vs " + other + " at " + row.sizeMb() + " MB, d " + row.compute() + ": " + t);
        }
      }
    }
  }

  @Test
  void sweep_10Mb1Diagonal_rootComputesWinsAndIaDerivedMatchesIt() {
    ApplicationSweep.Row row =
        sweep.stream().filter(r -> r.sizeMb() == 10 && r.compute() == 1).findFirst().orElseThrow();
    assertEquals(Protocol.ROOT_COMPUTES, row.best());
    for (Protocol p :
        List.of(
            Protocol.IA_MULTI,
            Protocol.IA_SINGLE,
            Protocol.BWC,
            Protocol.COMP_RATE,
            Protocol.FCFS)) {
      assertTrue(row.normalised().get(p) > 1, p + ": " + row.normalised());
    }
    // The exclusion rule the paper derived afterwards sends nothing and so loses nothing.
    assertEquals(1.0, row.normalised().get(Protocol.IA_DERIVED), 1e-12);
  }

  @Test
  void sweep_rootComputes_bestOnlyAt10Mb1Diagonal() {
    for (ApplicationSweep.Row row : sweep) {
      boolean degenerate = row.sizeMb() == 10 && row.compute() == 1;
      assertEquals(
          degenerate,
          row.best() == Protocol.ROOT_COMPUTES,
          row.sizeMb() + " MB, d " + row.compute());
    }
  }

  @Test
  void sweep_iaDerived_withinFivePercentOfTheSinglePortBoundWhereTennIsNotFed() {
    for (ApplicationSweep.Row row : sweep) {
      if (row.sizeMb() == 2 && row.compute() >= 7) {
        continue; // the bound feeds Tenn a slice of the port; whole 6.7 s sends cannot
      }
      double ratio = row.normalised().get(Protocol.IA_DERIVED) / row.boundSingle();
      assertTrue(
          ratio >= 1 - 1e-9 && ratio < 1.05,
          row.sizeMb() + " MB, d " + row.compute() + ": " + ratio);
    }
  }

  @Test
  void run_badArguments_rejected() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            TaskFarmSimulator.run(
                Table4.example(), new TaskSpec(1, 1), 0, Protocol.FCFS, DEFAULTS));
    assertThrows(IllegalArgumentException.class, () -> new TaskFarmSimulator.Settings(0, 1));
    assertThrows(IllegalArgumentException.class, () -> new TaskSpec(0, 1));
  }
}
