package org.netweather.scheduler.tree;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The steady-state upper bound on tasks per second a tree can absorb, for either send model.
 *
 * <p>Kreaseck et al., §3.2, by the bandwidth-centric method (Beaumont et al., IPDPS'02): bottom-up,
 * each node n gets a bound T̂(n) on the tasks per second its subtree can receive and compute. With
 * C = C^n, a_i = IR_s(i)·Z·C and δ = 1 + IR_r^n·Z·C (δ = 1 at the root, which receives nothing):
 *
 * <pre>
 *   T(n) = (C + Σ_i T(i)·(1 − a_i)) / δ          its own work shrinks by the interference
 *   subject to  0 ≤ T(i) ≤ T̂(i)
 *               Σ T(i) ≤ B_s/Z          (multi-port)   or   Σ T(i)/B_r^i ≤ 1   (single-port)
 *               T(n) ≤ B_r^n            (not at the root)
 *               S(n) = T(n) − Σ T(i) ≥ 0
 * </pre>
 *
 * The paper's greedy solves this: fill the children in {@link ChildPriority} order, each as far as
 * every constraint allows, never using an excluded one; a leaf's bound is {@code min(B_r, C/(1 +
 * IR_r·Z·C))}. The tests check the greedy against an exhaustive LP solution on all 18 application
 * types of the paper.
 *
 * <p>With the paper's constants the multi-port bound is mostly not above the single-port one: B_s =
 * 10.7 MB/s is below the single-child rates of about 11.1 MB/s
 * (docs/schedulers/interference-trees.md, errata). The exceptions are 2 MB tasks of 7 or more
 * units, where the slow Tenn link (0.3 MB/s) is worth feeding and multi-port can do so beside the
 * fast links instead of giving it the whole port. IA:Multi's experimental lead elsewhere cannot
 * come from this model.
 */
public final class ThroughputBound {
  private ThroughputBound() {}

  /**
   * The bound and the allocation that reaches it.
   *
   * @param tasksPerSecond T̂ at the root
   * @param rootRate C at the root: what RootComputes achieves
   * @param subtree T̂(n) for every node
   * @param local S(n), the tasks per second n computes itself in that allocation
   * @param sent T(i), the tasks per second sent to each non-root node in that allocation
   */
  public record Result(
      double tasksPerSecond,
      double rootRate,
      Map<String, Double> subtree,
      Map<String, Double> local,
      Map<String, Double> sent) {
    /** Time relative to RootComputes: C_root / T̂ (1 = no gain, lower is better). */
    public double normalisedTime() {
      return rootRate / tasksPerSecond;
    }
  }

  public static Result of(TreeNode root, TaskSpec task, SendModel model) {
    Map<String, Double> subtree = new LinkedHashMap<>();
    Map<String, Double> local = new LinkedHashMap<>();
    Map<String, Double> sent = new LinkedHashMap<>();
    double t = bound(root, true, task, model, subtree, local, sent);
    return new Result(t, task.taskRate(root), subtree, local, sent);
  }

  private static double bound(
      TreeNode n,
      boolean isRoot,
      TaskSpec task,
      SendModel model,
      Map<String, Double> subtree,
      Map<String, Double> local,
      Map<String, Double> given) {
    double c = task.taskRate(n);
    double delta = isRoot ? 1 : 1 + n.recvInterference() * task.sizeMb() * c;
    double inbound = isRoot ? Double.POSITIVE_INFINITY : task.linkTaskRate(n);
    Map<String, Double> hat = new LinkedHashMap<>();
    for (TreeNode child : n.children()) {
      hat.put(child.name(), bound(child, false, task, model, subtree, local, given));
      given.put(child.name(), 0.0);
    }
    double sent = 0; // Σ T(i)
    double gained = 0; // Σ T(i)·(1 − a_i)
    double port = model == SendModel.MULTI_PORT ? n.sendLimit() / task.sizeMb() : 1;
    for (TreeNode child : ChildPriority.rank(n, task, model).priority()) {
      double a = ChildPriority.offloadCost(n, child, task);
      double x = hat.get(child.name());
      x = Math.min(x, model == SendModel.MULTI_PORT ? port : port * task.linkTaskRate(child));
      if (!isRoot) {
        x = Math.min(x, (inbound * delta - c - gained) / (1 - a));
      }
      double own = (c + gained) / delta - sent;
      double shrink = 1 - (1 - a) / delta; // S(n) falls by this per task offloaded
      if (shrink > 0) {
        x = Math.min(x, own / shrink);
      }
      x = Math.max(0, x);
      given.put(child.name(), x);
      sent += x;
      gained += x * (1 - a);
      port -= model == SendModel.MULTI_PORT ? x : x / task.linkTaskRate(child);
    }
    double total = Math.min((c + gained) / delta, inbound);
    subtree.put(n.name(), total);
    local.put(n.name(), total - sent);
    return total;
  }
}
