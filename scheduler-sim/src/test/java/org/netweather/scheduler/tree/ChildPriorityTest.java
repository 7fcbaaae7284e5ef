package org.netweather.scheduler.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** T1, T3 and T5 of docs/schedulers/interference-trees.md, worked cases. */
class ChildPriorityTest {
  private static List<String> names(List<TreeNode> nodes) {
    return nodes.stream().map(TreeNode::name).toList();
  }

  private static List<String> order(TreeNode root, Protocol p) {
    return names(ChildPriority.protocolOrder(root, new TaskSpec(2, 1), p));
  }

  @Test
  void protocolOrder_table4_matchesFigures2To4() {
    TreeNode root = Table4.example();
    assertEquals(
        List.of("Lab4", "Lab5", "Lab3", "Lab6", "SB0", "Tenn"), order(root, Protocol.IA_SINGLE));
    assertEquals(List.of("Lab4", "Lab3", "Lab5", "Lab6", "SB0", "Tenn"), order(root, Protocol.BWC));
    assertEquals(
        List.of("Lab3", "SB0", "Tenn", "Lab6", "Lab4", "Lab5"), order(root, Protocol.COMP_RATE));
  }

  @Test
  void protocolOrder_row7_iaAndBwcDifferOnlyInLab5AsTheTextSays() {
    TreeNode root = Table4.example();
    List<String> ia = new ArrayList<>(order(root, Protocol.IA_SINGLE));
    List<String> bwc = new ArrayList<>(order(root, Protocol.BWC));
    assertNotEquals(ia, bwc);
    ia.remove("Lab5");
    bwc.remove("Lab5");
    assertEquals(ia, bwc);
    assertEquals("Lab3", order(root, Protocol.BWC).get(1)); // "second-highest priority child"
  }

  @Test
  void protocolOrder_row8_contradictsTheTextWithTennAsPrintedOrCorrected() {
    TreeNode printed = Table4.withSendInterference(Table4.IR_S_BOTH);
    assertEquals(
        List.of("Lab4", "Lab5", "Lab6", "Tenn", "Lab3", "SB0"), order(printed, Protocol.IA_SINGLE));
    double[] corrected = Table4.IR_S_BOTH.clone();
    corrected[5] = 0.0773;
    TreeNode fixed = Table4.withSendInterference(corrected);
    assertEquals(
        List.of("Lab4", "Lab5", "Lab6", "Lab3", "SB0", "Tenn"), order(fixed, Protocol.IA_SINGLE));
    // Either way IA and BWC differ in more than Lab5: Figure 2 must have used row 7 (#6).
    for (TreeNode root : List.of(printed, fixed)) {
      List<String> ia = new ArrayList<>(order(root, Protocol.IA_SINGLE));
      List<String> bwc = new ArrayList<>(order(root, Protocol.BWC));
      ia.remove("Lab5");
      bwc.remove("Lab5");
      assertNotEquals(ia, bwc);
    }
  }

  @Test
  void rank_eighteenTypes_excludeEveryChildOnlyAt10Mb1Diagonal() {
    TreeNode root = Table4.example();
    Set<String> allExcluded = new HashSet<>();
    for (double z : ApplicationSweep.SIZES_MB) {
      for (double d : ApplicationSweep.COMPUTES) {
        ChildPriority.Ranking r =
            ChildPriority.rank(root, new TaskSpec(z, d), SendModel.MULTI_PORT);
        String type = (int) z + "MB/d" + (int) d;
        if (r.priority().isEmpty()) {
          allExcluded.add(type);
        }
        List<String> expected =
            switch (type) {
              case "10MB/d1" -> Table4.LEAVES;
              case "5MB/d1" -> List.of("Lab3", "Lab6", "SB0", "Tenn");
              case "2MB/d1", "10MB/d3", "10MB/d5" -> List.of("Tenn");
              default -> List.of();
            };
        assertEquals(expected, r.excludedNames(), type);
      }
    }
    assertEquals(Set.of("10MB/d1"), allExcluded);
  }

  @Test
  void offloadCost_10Mb1Diagonal_smallestIsLab4AboveOne() {
    TreeNode root = Table4.example();
    TaskSpec task = new TaskSpec(10, 1);
    double lab4 = ChildPriority.offloadCost(root, root.children().get(1), task);
    assertEquals(1.804, lab4, 1e-3); // 0.0199·10·9.0645 (1.802 with the rounded 9.055)
    TreeNode row8 = Table4.withSendInterference(Table4.IR_S_BOTH);
    assertEquals(1.885, ChildPriority.offloadCost(row8, row8.children().get(1), task), 1e-3);
    assertEquals(List.of(), ChildPriority.rank(row8, task, SendModel.MULTI_PORT).priority());
  }

  @Test
  void rank_row8At5Mb1Diagonal_allowsOnlyLab4() {
    TreeNode row8 = Table4.withSendInterference(Table4.IR_S_BOTH);
    ChildPriority.Ranking r = ChildPriority.rank(row8, new TaskSpec(5, 1), SendModel.MULTI_PORT);
    assertEquals(List.of("Lab4"), r.priorityNames());
    assertEquals(
        0.943, ChildPriority.offloadCost(row8, row8.children().get(1), new TaskSpec(5, 1)), 1e-3);
  }

  @Test
  void rank_singlePort2Mb1Diagonal_ordersByBrTimesOneMinusA() {
    TreeNode root = Table4.example();
    TaskSpec task = new TaskSpec(2, 1);
    ChildPriority.Ranking r = ChildPriority.rank(root, task, SendModel.SINGLE_PORT);
    assertEquals(List.of("Lab4", "Lab5", "Lab3", "Lab6", "SB0"), r.priorityNames());
    assertEquals(List.of("Tenn"), r.excludedNames());
    double[] expected = {3.554, 3.412, 2.542, 2.425, 1.686};
    for (int i = 0; i < expected.length; i++) {
      assertEquals(
          expected[i],
          ChildPriority.singlePortValue(root, r.priority().get(i), task),
          1e-3,
          r.priority().get(i).name());
    }
    assertEquals(1.157, ChildPriority.offloadCost(root, root.children().get(5), task), 1e-3);
  }

  @Test
  void rank_singlePort5Mb1Diagonal_onlyLab4AndLab5() {
    TreeNode root = Table4.example();
    TaskSpec task = new TaskSpec(5, 1);
    ChildPriority.Ranking r = ChildPriority.rank(root, task, SendModel.SINGLE_PORT);
    assertEquals(List.of("Lab4", "Lab5"), r.priorityNames());
    assertEquals(0.218, ChildPriority.singlePortValue(root, r.priority().get(0), task), 1e-3);
    assertEquals(0.097, ChildPriority.singlePortValue(root, r.priority().get(1), task), 1e-3);
  }
}
