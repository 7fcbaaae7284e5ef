package org.netweather.scheduler.tree;

/**
 * The identical independent tasks to farm out.
 *
 * @param sizeMb Z, MB sent from parent to child per task
 * @param compute compute units per task (diagonals in the paper); a node of compute rate R finishes
 *     one in {@code compute / R} seconds
 */
public record TaskSpec(double sizeMb, double compute) {
  public TaskSpec {
    if (!(sizeMb > 0) || Double.isInfinite(sizeMb)) {
      throw new IllegalArgumentException(
          "task size must be a positive number of MB, got " + sizeMb);
    }
    if (!(compute > 0) || Double.isInfinite(compute)) {
      throw new IllegalArgumentException(
          "task compute must be a positive number of units, got " + compute);
    }
  }

  /** C^n: tasks per second node n computes with no communication. */
  public double taskRate(TreeNode n) {
    return n.computeRate() / compute;
  }

  /** B_r^n: tasks per second the parent can send to n. */
  public double linkTaskRate(TreeNode n) {
    return n.linkRate() / sizeMb;
  }
}
