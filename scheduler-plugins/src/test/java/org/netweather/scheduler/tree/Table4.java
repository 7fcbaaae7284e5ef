package org.netweather.scheduler.tree;

import java.util.List;
import org.netweather.scheduler.Examples;

/** Table 4 of Kreaseck et al., row by row, in leaf order Lab3, Lab4, Lab5, Lab6, SB0, Tenn. */
final class Table4 {
  static final List<String> LEAVES = List.of("Lab3", "Lab4", "Lab5", "Lab6", "SB0", "Tenn");
  static final double[] ROOT_RATE = {9.057, 9.055, 9.055, 8.98, 9.18, 9.06}; // row 1
  static final double[] LEAF_RATE = {23.86, 3.47, 3.02, 8.27, 22.55, 13.23}; // row 2
  static final double[] ROOT_SENDING = {5.8, 7.02, 7.1, 5.8, 6.75, 8.92}; // row 3
  static final double[] LEAF_RECEIVING = {12.45, 1.77, 1.2, 7.12, 15.15, 12.7}; // row 4
  static final double[] LINK = {11.1, 11.12, 11.05, 10.85, 7.7, 0.3}; // row 5
  static final double[] LINK_BOTH = {10.8, 10.81, 9.62, 10.7, 7.73, 0.2}; // row 6
  static final double[] IR_S_ROOT_ONLY = {0.0299, 0.0199, 0.0211, 0.0305, 0.0310, 0.0638}; // 7
  static final double[] IR_S_BOTH = {0.0333, 0.0208, 0.0226, 0.0331, 0.0342, 0.0331}; // row 8
  static final double[] IR_R_BOTH = {0.0443, 0.0454, 0.0621, 0.0130, 0.0425, 0.1300}; // row 9

  private Table4() {}

  /** The example file: rows 2, 5, 7, 9; root rate the mean of row 1; B_s = 10.7 MB/s. */
  static TreeNode example() {
    return TreeReader.read(Examples.path("tree/table4.json"));
  }

  /** The fork graph with IR_s from {@code irS} instead of row 7. */
  static TreeNode withSendInterference(double[] irS) {
    TreeNode root = example();
    List<TreeNode> kids = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      TreeNode c = root.children().get(i);
      kids.add(
          TreeNode.leaf(c.name(), c.computeRate(), c.linkRate(), irS[i], c.recvInterference()));
    }
    return TreeNode.root(root.name(), root.computeRate(), root.sendLimit(), kids);
  }

  static double mean(double[] xs) {
    double s = 0;
    for (double x : xs) {
      s += x;
    }
    return s / xs.length;
  }
}
