package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MarkedBlocksTest {
  private static final String PAGE =
      String.join(
          "\n",
          "# Title",
          "",
          "```sh",
          "bin/nws unmarked",
          "```",
          "",
          "<!-- run this -->",
          "```sh",
          "# a comment alone",
          "bin/nws put a:b 1      # stores it",
          "",
          "bin/nws clique create lab \\",
          "    --members a,b",
          "```",
          "text",
          "<!-- run this too -->",
          "",
          "```",
          "bin/nws hosts",
          "```",
          "");

  @Test
  void after_markedBlocks_commandsInOrderWithContinuationsJoined() {
    List<List<String>> blocks = MarkedBlocks.after(PAGE, "<!-- run this");
    assertEquals(
        List.of(
            List.of(
                "bin/nws put a:b 1      # stores it", "bin/nws clique create lab --members a,b"),
            List.of("bin/nws hosts")),
        blocks);
  }

  @Test
  void after_noMarker_noBlocks() {
    assertTrue(MarkedBlocks.after(PAGE, "<!-- nothing").isEmpty());
  }

  @Test
  void after_markerWithoutBlock_saysWhere() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> MarkedBlocks.after("intro\n<!-- run this -->\ntext\n", "<!-- run this"));
    assertEquals("the marker on line 2 is not followed by a fenced block", e.getMessage());
  }

  @Test
  void after_unclosedBlock_saysWhere() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> MarkedBlocks.after("<!-- run this -->\n```sh\nbin/nws hosts\n", "<!-- run this"));
    assertEquals("the block on line 2 is not closed", e.getMessage());
  }
}
