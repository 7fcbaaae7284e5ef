package org.netweather.scheduler.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TreeReaderTest {
  private static IllegalArgumentException bad(String json) {
    return assertThrows(IllegalArgumentException.class, () -> TreeReader.parse(json, "t.json"));
  }

  @Test
  void read_table4Example_hasSixLeavesWithRow7() {
    TreeNode root = Table4.example();
    assertEquals("Lab0", root.name());
    assertEquals(9.0645, root.computeRate(), 1e-12);
    assertEquals(10.7, root.sendLimit());
    assertEquals(Table4.LEAVES, root.children().stream().map(TreeNode::name).toList());
    for (int i = 0; i < 6; i++) {
      TreeNode c = root.children().get(i);
      assertEquals(Table4.LEAF_RATE[i], c.computeRate());
      assertEquals(Table4.LINK[i], c.linkRate());
      assertEquals(Table4.IR_S_ROOT_ONLY[i], c.sendInterference());
      assertEquals(Table4.IR_R_BOTH[i], c.recvInterference());
    }
    assertEquals(Table4.mean(Table4.ROOT_RATE), root.computeRate(), 1e-12);
  }

  @Test
  void parse_nestedTree_readsEveryLevel() {
    TreeNode root =
        TreeReader.parse(
            "{\"root\": {\"name\": \"r\", \"computeRate\": 1, "
                + "\"children\": [{\"name\": \"m\", \"computeRate\": 2, \"linkRate\": 3, "
                + "\"sendInterference\": 0.1, \"sendLimit\": 4, \"children\": [{\"name\": \"g\", "
                + "\"computeRate\": 5, \"linkRate\": 6, \"sendInterference\": 0.2, "
                + "\"recvInterference\": 0.3}]}]}}",
            "t.json");
    assertEquals(3, root.preorder().size());
    TreeNode m = root.children().get(0);
    assertEquals(0, m.recvInterference());
    assertEquals(4, m.sendLimit());
    assertEquals(0.3, m.children().get(0).recvInterference());
    assertTrue(Double.isInfinite(root.sendLimit()));
  }

  @Test
  void parse_unknownKeys_namedWithPaths() {
    IllegalArgumentException e =
        bad(
            "{\"rooot\": 1, \"root\": {\"name\": \"r\", "
                + "\"computeRate\": 1, \"speed\": 2, \"children\": [{\"name\": \"c\", \"rate\": 1}]}}");
    assertTrue(e.getMessage().contains("rooot"), e.getMessage());
    assertTrue(e.getMessage().contains("root.speed"), e.getMessage());
    assertTrue(e.getMessage().contains("root.children[0].rate"), e.getMessage());
  }

  @Test
  void parse_invalidNodes_rejectedNamingTheField() {
    assertTrue(bad("{}").getMessage().contains("root: missing"));
    assertTrue(bad("{\"root\": {\"name\": \"r\"}}").getMessage().contains("root.computeRate"));
    assertTrue(
        bad("{\"root\": {\"name\": \"r\", \"computeRate\": 1, \"linkRate\": 2}}")
            .getMessage()
            .contains("root.linkRate: the root has no parent link"));
    assertTrue(
        bad("{\"root\": {\"name\": \"r\", \"computeRate\": 1, \"children\": [{\"name\":"
                + " \"c\", \"computeRate\": 1, \"linkRate\": 1}]}}")
            .getMessage()
            .contains("root.children[0].sendInterference"));
    assertTrue(
        bad("{\"root\": {\"name\": \"r\", \"computeRate\": 1, \"children\": [{\"name\":"
                + " \"r\", \"computeRate\": 1, \"linkRate\": 1, \"sendInterference\": 0}]}}")
            .getMessage()
            .contains("'r' appears twice"));
    assertTrue(
        bad("{\"root\": {\"name\": \"r\", \"computeRate\": \"fast\"}}")
            .getMessage()
            .contains("root.computeRate: not a number"));
  }
}
