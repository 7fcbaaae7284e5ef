package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.cli.ErrorHandler;
import picocli.CommandLine;

/** {@code nws series delete} is a dry run unless told {@code --force}. */
class SeriesDeleteCommandTest {
  @TempDir Path dir;

  @Test
  void delete_withoutForce_listsAndDeletesNothing_withForce_deletes() throws Exception {
    try (LoopbackStore site = LoopbackStore.start(dir)) {
      String target = site.target;
      for (int i = 0; i < 12; i++) {
        site.client.put(String.format("user.x:h%02d", i), LoopbackStore.aSecondAgo());
      }

      StringWriter dry = new StringWriter();
      assertEquals(0, run(dry, "--nameserver", target, "*"));
      assertEquals(12, site.memory.store().seriesCount(), dry.toString());
      List<String> lines = dry.toString().lines().toList();
      assertEquals("user.x:h00", lines.get(0));
      assertEquals("user.x:h09", lines.get(SeriesDeleteCommand.SHOWN - 1));
      assertTrue(lines.get(SeriesDeleteCommand.SHOWN).startsWith("... and 2 more on "));
      assertEquals(
          "dry run: would delete 12 series; nothing deleted (add --force to delete them)",
          lines.get(lines.size() - 1));

      StringWriter forced = new StringWriter();
      assertEquals(0, run(forced, "--nameserver", target, "--force", "user.x:h0*"));
      assertEquals(2, site.memory.store().seriesCount(), forced.toString());
      assertTrue(forced.toString().endsWith("deleted 10 series\n"), forced.toString());
    }
  }

  private static int run(StringWriter out, String... args) {
    StringWriter err = new StringWriter();
    CommandLine cmd =
        new CommandLine(new SeriesDeleteCommand()).setExecutionExceptionHandler(new ErrorHandler());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    int code = cmd.execute(args);
    assertEquals("", err.toString());
    return code;
  }
}
