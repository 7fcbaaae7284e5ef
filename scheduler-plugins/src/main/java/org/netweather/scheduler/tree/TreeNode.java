package org.netweather.scheduler.tree;

import java.util.ArrayList;
import java.util.List;

/**
 * One node of a tree overlay, with the link and interference figures of the edge from its parent.
 *
 * @param name unique node name
 * @param computeRate compute units per second with no communication (C^n for a unit task)
 * @param linkRate MB/s its parent can send to it (B_r^n·Z, Table 4 row 5); NaN for the root
 * @param sendInterference IR_s at the parent for sending to this node, per MB/s (Table 4 row 7);
 *     NaN for the root
 * @param recvInterference IR_r at this node while receiving from its parent, per MB/s (Table 4 row
 *     9); 0 for the root
 * @param sendLimit MB/s this node can send in total to all its children at once (B_s^n, the
 *     multi-port cap); infinite when not measured
 * @param children the children, in file order
 */
public record TreeNode(
    String name,
    double computeRate,
    double linkRate,
    double sendInterference,
    double recvInterference,
    double sendLimit,
    List<TreeNode> children) {

  public TreeNode {
    children = List.copyOf(children);
  }

  /** A root: no parent link. */
  public static TreeNode root(
      String name, double computeRate, double sendLimit, List<TreeNode> children) {
    return new TreeNode(name, computeRate, Double.NaN, Double.NaN, 0, sendLimit, children);
  }

  /** A leaf child. */
  public static TreeNode leaf(
      String name,
      double computeRate,
      double linkRate,
      double sendInterference,
      double recvInterference) {
    return new TreeNode(
        name,
        computeRate,
        linkRate,
        sendInterference,
        recvInterference,
        Double.POSITIVE_INFINITY,
        List.of());
  }

  public boolean isLeaf() {
    return children.isEmpty();
  }

  /** This node and its descendants, parents before children. */
  public List<TreeNode> preorder() {
    List<TreeNode> out = new ArrayList<>();
    collect(this, out);
    return out;
  }

  private static void collect(TreeNode n, List<TreeNode> out) {
    out.add(n);
    for (TreeNode c : n.children) {
      collect(c, out);
    }
  }
}
