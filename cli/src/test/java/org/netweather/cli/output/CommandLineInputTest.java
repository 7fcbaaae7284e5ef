package org.netweather.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.netweather.cli.NwsCommand;
import picocli.CommandLine;

/**
 * Odd input on the command line is refused before anything is sent, with a message naming the
 * option and what it takes, cut short when huge, and never a raw Java exception message.
 */
class CommandLineInputTest {
  private final Clock clock = Clock.fixed(Instant.parse("2026-11-24T00:00:00Z"), ZoneOffset.UTC);

  private static String[] run(String... args) {
    StringWriter err = new StringWriter();
    CommandLine cmd = NwsCommand.commandLine();
    cmd.setErr(new PrintWriter(err, true));
    cmd.setOut(new PrintWriter(new StringWriter(), true));
    int code = cmd.execute(args);
    return new String[] {String.valueOf(code), err.toString()};
  }

  @Test
  void put_takesDecimalNumbersOnly() {
    for (String bad : new String[] {"0x1.8p-1", "NaN", "1.5d", "Infinity", "1e99999"}) {
      String[] r = run("put", "cpu.availability:alpha", bad, "--nameserver", "localhost:1");
      assertEquals("2", r[0], bad + ": " + r[1]);
      assertTrue(r[1].contains("VALUE '" + bad + "'"), r[1]);
    }
    String huge = "9".repeat(5_000) + "x";
    String[] r = run("put", "cpu.availability:alpha", huge, "--nameserver", "localhost:1");
    assertEquals("2", r[0]);
    assertTrue(r[1].length() < 300, "a huge value is cut in the message: " + r[1].length());
  }

  @Test
  void at_isBounded_andNeverARawJavaMessage() {
    for (String bad :
        new String[] {"99999999999999999999999", "99999999999d", "10000-01-01T00:00:00Z", "soon"}) {
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class, () -> TimeArgs.parse("--at", bad, clock));
      assertTrue(e.getMessage().startsWith("--at '"), e.getMessage());
      assertFalse(e.getMessage().contains("For input string"), e.getMessage());
    }
    assertEquals(
        Instant.parse("2026-11-23T22:00:00Z").toEpochMilli(), TimeArgs.parse("--at", "2h", clock));
  }

  @Test
  void period_takesUnitsUpToADay() {
    String[] r =
        run("clique", "create", "c", "--members", "a,b", "--period", "2d", "--nameserver", "x:1");
    assertEquals("2", r[0], r[1]);
    assertTrue(r[1].contains("outside 1s to 1d"), r[1]);
    r =
        run(
            "clique",
            "create",
            "c",
            "--members",
            "a,b",
            "--period",
            "5 min",
            "--nameserver",
            "x:1");
    assertEquals("2", r[0], r[1]);
    assertTrue(r[1].contains("not a duration"), r[1]);
  }
}
