package org.netweather.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command tree: plugins under {@code schedule}, the old top-level spellings kept hidden. */
class NwsCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cmd = NwsCommand.commandLine();
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    return cmd.execute(args);
  }

  private static Path matrix() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path p = dir.resolve("examples/cluster/table2-78.csv");
      if (Files.exists(p)) {
        return p;
      }
    }
    throw new IllegalStateException("examples/cluster/table2-78.csv not found");
  }

  @Test
  void help_listsSchedule_notTheHiddenAliases() {
    assertEquals(0, run("--help"));
    String help = out.toString();
    assertTrue(help.contains("schedule"), help);
    assertFalse(help.lines().anyMatch(l -> l.strip().startsWith("cluster ")), help);
    assertFalse(help.lines().anyMatch(l -> l.strip().startsWith("swap ")), help);
  }

  @Test
  void cluster_oldAndNewSpelling_printTheSameClusters() {
    String m = matrix().toString();
    assertEquals(0, run("schedule", "cluster", "--latency-matrix", m, "--json"), err.toString());
    String scheduled = out.toString();
    out.getBuffer().setLength(0);
    assertEquals(0, run("cluster", "--latency-matrix", m, "--json"), err.toString());
    assertTrue(scheduled.contains("\"clusters\""), scheduled);
    assertEquals(scheduled, out.toString());
  }

  @Test
  void swap_oldSpelling_stillParsesItsSubcommands() {
    assertEquals(0, run("swap", "force", "--help"));
    assertTrue(out.toString().contains("OUT"), out.toString());
  }

  @Test
  void badOption_namesTheFullCommand() {
    assertEquals(ErrorHandler.USAGE, run("schedule", "cluster", "--nope"));
    assertTrue(err.toString().startsWith("nws schedule cluster: "), err.toString());
  }
}
