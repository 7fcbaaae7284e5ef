package org.netweather.scheduler.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * T4 of docs/schedulers/interference-trees.md, worked cases, and the greedy against an exact LP
 * solution.
 */
class ThroughputBoundTest {
  private static final TreeNode ROOT = Table4.example();

  private static void check(double z, double d, double cRoot, double multi, double single) {
    TaskSpec task = new TaskSpec(z, d);
    ThroughputBound.Result m = ThroughputBound.of(ROOT, task, SendModel.MULTI_PORT);
    ThroughputBound.Result s = ThroughputBound.of(ROOT, task, SendModel.SINGLE_PORT);
    String type = z + " MB, d " + d;
    assertEquals(cRoot, m.rootRate(), 1e-3, type);
    assertEquals(multi, m.tasksPerSecond(), 1e-3, type);
    assertEquals(single, s.tasksPerSecond(), 1e-3, type);
  }

  @Test
  void bound_t4Rows_matchTheWorkedTable() {
    check(2, 1, 9.065, 12.343, 12.432);
    check(2, 11, 0.824, 5.598, 5.389);
    check(5, 1, 9.065, 9.264, 9.267);
    check(5, 3, 3.022, 4.435, 4.478);
    check(10, 1, 9.065, 9.065, 9.065);
    check(10, 3, 3.022, 3.437, 3.451);
    check(10, 11, 0.824, 1.670, 1.700);
    ThroughputBound.Result r = ThroughputBound.of(ROOT, new TaskSpec(2, 1), SendModel.MULTI_PORT);
    assertEquals(0.734, r.normalisedTime(), 1e-3);
  }

  @Test
  void bound_10Mb1Diagonal_isExactlyTheRootAlone() {
    for (SendModel model : SendModel.values()) {
      ThroughputBound.Result r = ThroughputBound.of(ROOT, new TaskSpec(10, 1), model);
      assertEquals(r.rootRate(), r.tasksPerSecond(), 0.0);
      assertEquals(1.0, r.normalisedTime(), 0.0);
    }
  }

  @Test
  void bound_fixedSize_normalisedTimeNeverRisesWithCompute() {
    for (SendModel model : SendModel.values()) {
      for (double z : ApplicationSweep.SIZES_MB) {
        double previous = Double.POSITIVE_INFINITY;
        for (double d : ApplicationSweep.COMPUTES) {
          double t = ThroughputBound.of(ROOT, new TaskSpec(z, d), model).normalisedTime();
          assertTrue(t <= previous + 1e-12, model + " " + z + " MB d " + d);
          previous = t;
        }
      }
    }
  }

  @Test
  void bound_greedy_equalsTheLpOptimumOnAllEighteenTypes() {
    for (SendModel model : SendModel.values()) {
      for (double z : ApplicationSweep.SIZES_MB) {
        for (double d : ApplicationSweep.COMPUTES) {
          TaskSpec task = new TaskSpec(z, d);
          double greedy = ThroughputBound.of(ROOT, task, model).tasksPerSecond();
          assertEquals(lp(ROOT, task, model), greedy, 1e-9, model + " " + z + " MB d " + d);
        }
      }
    }
  }

  @Test
  void bound_multiPortAboveSinglePort_onlyWhereTheSlowLinkPays() {
    // Inconsistency #7: B_s = 10.7 MB/s is below the single-child rates, so multi-port's bound
    // is not higher, except where feeding Tenn's 0.3 MB/s link concurrently is worth it.
    Set<String> multiWins = new HashSet<>();
    for (double z : ApplicationSweep.SIZES_MB) {
      for (double d : ApplicationSweep.COMPUTES) {
        TaskSpec task = new TaskSpec(z, d);
        if (ThroughputBound.of(ROOT, task, SendModel.MULTI_PORT).tasksPerSecond()
            > ThroughputBound.of(ROOT, task, SendModel.SINGLE_PORT).tasksPerSecond() + 1e-12) {
          multiWins.add((int) z + "/" + (int) d);
        }
      }
    }
    assertEquals(Set.of("2/7", "2/9", "2/11"), multiWins);
  }

  @Test
  void bound_interiorNode_cappedByItsOwnLink() {
    // A child that could pass work on but is fed at 1 task/s can absorb at most 1 task/s.
    TreeNode grandchild = TreeNode.leaf("g", 100, 100, 0, 0);
    TreeNode mid = new TreeNode("m", 1, 1, 0, 0, Double.POSITIVE_INFINITY, List.of(grandchild));
    TreeNode root = TreeNode.root("r", 1, Double.POSITIVE_INFINITY, List.of(mid));
    ThroughputBound.Result r = ThroughputBound.of(root, new TaskSpec(1, 1), SendModel.MULTI_PORT);
    assertEquals(1.0, r.subtree().get("m"), 1e-12);
    assertEquals(2.0, r.tasksPerSecond(), 1e-12);
  }

  /**
   * The exact optimum of the root's LP over its children: maximise Σ T(i)(1 − a_i) subject to 0 ≤
   * T(i) ≤ T̂(i), the port constraint and Σ a_i T(i) ≤ C, by enumerating vertices. With two general
   * constraints a vertex has at most two variables strictly between their bounds.
   */
  private static double lp(TreeNode root, TaskSpec task, SendModel model) {
    List<TreeNode> kids = root.children();
    int n = kids.size();
    double c = task.taskRate(root);
    double[] hi = new double[n];
    double[] gain = new double[n];
    double[][] g = new double[2][n]; // rows: port, own work
    double[] cap = {model == SendModel.MULTI_PORT ? root.sendLimit() / task.sizeMb() : 1, c};
    for (int i = 0; i < n; i++) {
      TreeNode k = kids.get(i);
      double ck = task.taskRate(k);
      hi[i] = Math.min(task.linkTaskRate(k), ck / (1 + k.recvInterference() * task.sizeMb() * ck));
      double a = ChildPriority.offloadCost(root, k, task);
      gain[i] = 1 - a;
      g[0][i] = model == SendModel.MULTI_PORT ? 1 : 1 / task.linkTaskRate(k);
      g[1][i] = a;
    }
    List<int[]> freeSets = new java.util.ArrayList<>();
    freeSets.add(new int[0]);
    for (int i = 0; i < n; i++) {
      freeSets.add(new int[] {i});
      for (int j = i + 1; j < n; j++) {
        freeSets.add(new int[] {i, j});
      }
    }
    double best = 0;
    for (int[] free : freeSets) {
      int freeMask = 0;
      for (int f : free) {
        freeMask |= 1 << f;
      }
      for (int mask = 0; mask < 1 << n; mask++) {
        if ((mask & freeMask) != 0) {
          continue; // a free variable's mask bit stays clear, so each vertex is tried once
        }
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
          x[i] = (mask >> i & 1) == 1 ? hi[i] : 0;
        }
        for (double[] sol : solveFree(x, free, g, cap)) {
          if (feasible(sol, hi, g, cap)) {
            double v = c;
            for (int i = 0; i < n; i++) {
              v += gain[i] * sol[i];
            }
            best = Math.max(best, v);
          }
        }
      }
    }
    return best;
  }

  /** Candidate vertices: free variables set so that one or both general constraints bind. */
  private static List<double[]> solveFree(double[] fixed, int[] free, double[][] g, double[] cap) {
    if (free.length == 0) {
      return List.of(fixed);
    }
    double[] rest = new double[2];
    for (int r = 0; r < 2; r++) {
      for (int i = 0; i < fixed.length; i++) {
        rest[r] += g[r][i] * fixed[i];
      }
      rest[r] = cap[r] - rest[r];
    }
    java.util.ArrayList<double[]> out = new java.util.ArrayList<>();
    if (free.length == 1) {
      int f = free[0];
      for (int r = 0; r < 2; r++) {
        if (g[r][f] != 0) {
          double[] x = fixed.clone();
          x[f] = rest[r] / g[r][f];
          out.add(x);
        }
      }
      return out;
    }
    int p = free[0];
    int q = free[1];
    double det = g[0][p] * g[1][q] - g[0][q] * g[1][p];
    if (Math.abs(det) > 1e-15) {
      double[] x = fixed.clone();
      x[p] = (rest[0] * g[1][q] - g[0][q] * rest[1]) / det;
      x[q] = (g[0][p] * rest[1] - rest[0] * g[1][p]) / det;
      out.add(x);
    }
    return out;
  }

  private static boolean feasible(double[] x, double[] hi, double[][] g, double[] cap) {
    double tol = 1e-12;
    for (int i = 0; i < x.length; i++) {
      if (x[i] < -tol || x[i] > hi[i] + tol) {
        return false;
      }
    }
    for (int r = 0; r < 2; r++) {
      double s = 0;
      for (int i = 0; i < x.length; i++) {
        s += g[r][i] * x[i];
      }
      if (s > cap[r] + 1e-9) {
        return false;
      }
    }
    return true;
  }
}
