package org.netweather.scheduler.tree;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which children a parent should serve first, and which never: the interference-aware rules.
 *
 * <p>Kreaseck et al., §3.2. Offloading one task per second to child i costs the parent {@code a_i =
 * IR_s(i)·Z·C^n} tasks per second of its own work (Z MB sent, each MB/s costing IR_s(i) of a
 * compute rate of C^n tasks/s). Hence:
 *
 * <ul>
 *   <li>Exclusion: never send to a child with {@code a_i ≥ 1}; that task would cost the parent more
 *       than computing it. (The paper's "IR_s(i) ≥ C^n > 1" is this inequality with the factors
 *       lost in conversion, docs/schedulers/interference-trees.md, errata.)
 *   <li>Multi-port: serve in increasing IR_s(i); moving a task to a lower-IR child keeps the total
 *       sent and lowers the interference.
 *   <li>Single-port: serve in decreasing {@code B_r^i·(1 − a_i)}; one second of the port spent on
 *       child i moves B_r^i tasks at a parent cost of a_i each.
 * </ul>
 *
 * Ties go to the smaller name so orders are deterministic.
 */
public final class ChildPriority {
  private ChildPriority() {}

  /**
   * The rule applied to a parent's children.
   *
   * @param priority children that may be sent tasks, highest priority first
   * @param excluded children never to be sent a task ({@code a_i ≥ 1}), in file order
   */
  public record Ranking(List<TreeNode> priority, List<TreeNode> excluded) {
    public Ranking {
      priority = List.copyOf(priority);
      excluded = List.copyOf(excluded);
    }

    public List<String> priorityNames() {
      return priority.stream().map(TreeNode::name).toList();
    }

    public List<String> excludedNames() {
      return excluded.stream().map(TreeNode::name).toList();
    }
  }

  /** a_i = IR_s(i)·Z·C^n: parent tasks lost per task offloaded to {@code child}. */
  public static double offloadCost(TreeNode parent, TreeNode child, TaskSpec task) {
    return child.sendInterference() * task.sizeMb() * task.taskRate(parent);
  }

  /** B_r^i·(1 − a_i): the single-port priority key, larger first. */
  public static double singlePortValue(TreeNode parent, TreeNode child, TaskSpec task) {
    return task.linkTaskRate(child) * (1 - offloadCost(parent, child, task));
  }

  /** The rule for {@code model} over {@code parent}'s children. */
  public static Ranking rank(TreeNode parent, TaskSpec task, SendModel model) {
    List<TreeNode> keep = new ArrayList<>();
    List<TreeNode> drop = new ArrayList<>();
    for (TreeNode c : parent.children()) {
      (offloadCost(parent, c, task) >= 1 ? drop : keep).add(c);
    }
    keep.sort(comparator(parent, task, model));
    return new Ranking(keep, drop);
  }

  /**
   * The fixed child order a protocol serves requests in, highest first, ignoring exclusion: IR_s
   * ascending for IA:Single and IA:Multi (Figure 2), B_r·(1 − a) for IA:Derived, link rate
   * descending for BWC (Figure 4), compute rate descending for CompRate (Figure 3). FCFS and
   * RootComputes have no fixed order; they get name order.
   */
  public static List<TreeNode> protocolOrder(TreeNode parent, TaskSpec task, Protocol protocol) {
    Comparator<TreeNode> key =
        switch (protocol) {
          case IA_MULTI, IA_SINGLE -> Comparator.comparingDouble(TreeNode::sendInterference);
          case IA_DERIVED -> comparator(parent, task, SendModel.SINGLE_PORT);
          case BWC -> Comparator.comparingDouble((TreeNode c) -> -c.linkRate());
          case COMP_RATE -> Comparator.comparingDouble((TreeNode c) -> -c.computeRate());
          case FCFS, ROOT_COMPUTES -> Comparator.comparing((TreeNode c) -> 0);
        };
    List<TreeNode> order = new ArrayList<>(parent.children());
    order.sort(key.thenComparing(TreeNode::name));
    return order;
  }

  /** Highest priority first under {@code model}, ignoring exclusion. */
  public static Comparator<TreeNode> comparator(TreeNode parent, TaskSpec task, SendModel model) {
    Comparator<TreeNode> key =
        model == SendModel.MULTI_PORT
            ? Comparator.comparingDouble(TreeNode::sendInterference)
            : Comparator.comparingDouble((TreeNode c) -> -singlePortValue(parent, c, task));
    return key.thenComparing(TreeNode::name);
  }
}
