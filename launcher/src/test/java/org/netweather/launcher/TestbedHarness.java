package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the namespaced harnesses under testbed/ (e2e, clique, faults, distributed...) from a
 * test: the checks that skip it where it cannot run, the run itself, and the check that every fault
 * printed a passing figure line.
 */
final class TestbedHarness {
  static final Path HOME =
      Path.of(System.getProperty("netweather.home", "..")).toAbsolutePath().normalize();

  record Run(int exit, String output) {}

  private TestbedHarness() {}

  /** Skips the test unless this is root with {@code tools} and network namespaces at hand. */
  static void assumeTestbed(String what, List<String> tools) throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), what + " needs root");
    for (String tool : tools) {
      assumeTrue(
          run(List.of("sh", "-c", "command -v " + tool), 10).exit() == 0,
          what + " needs " + tool + " (.ci/run installs it)");
    }
    String probe = "nwstb-probe-" + ProcessHandle.current().pid();
    assumeTrue(
        run(List.of("ip", "netns", "add", probe), 10).exit() == 0,
        "this machine cannot create network namespaces");
    run(List.of("ip", "netns", "del", probe), 10);
  }

  static Run run(List<String> cmd, long timeoutSeconds) throws Exception {
    Path out = Files.createTempFile("nwstb", ".log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(HOME.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroy(); // the harnesses kill their daemons and clean their namespaces up on TERM
      p.waitFor(30, TimeUnit.SECONDS);
      p.destroyForcibly();
    }
    String text = Files.readString(out);
    Files.delete(out);
    return new Run(p.isAlive() ? -1 : p.exitValue(), text);
  }

  /** Each of {@code faults} printed its line, {@code FAULT name: ... PASS}. */
  static void assertEveryFaultPassed(Run r, List<String> faults) {
    for (String f : faults) {
      assertTrue(
          r.output()
              .lines()
              .anyMatch(l -> l.startsWith("FAULT " + f + ": ") && l.endsWith(" PASS")),
          "no passing line for " + f + ":\n" + r.output());
    }
  }
}
