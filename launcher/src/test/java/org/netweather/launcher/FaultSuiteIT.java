package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs testbed/faults from the test command: a namespaced site, every daemon its own process, under
 * a partition, a nameserver stall, damaged files, full disks, a fast clock, kills and floods, each
 * fault's outcome asserted by the harness. It needs root, iproute2, tmpfs mounts, javac, curl and
 * libfaketime; elsewhere the test is skipped and says why.
 */
class FaultSuiteIT {
  private static final Path HOME =
      Path.of(System.getProperty("netweather.home", "..")).toAbsolutePath().normalize();
  private static final List<String> FAULTS =
      List.of("partition", "stall", "corruption", "diskfull", "clockskew", "kills", "floods");

  private record Run(int exit, String output) {}

  private static void assumeTestbed() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "the fault suite needs root");
    for (String tool : List.of("ip", "tc", "python3", "curl", "javac", "mount", "faketime")) {
      assumeTrue(
          run(List.of("sh", "-c", "command -v " + tool), 10).exit() == 0,
          "the fault suite needs " + tool + " (.ci/run installs it)");
    }
    String probe = "nwstb-probe-" + ProcessHandle.current().pid();
    assumeTrue(
        run(List.of("ip", "netns", "add", probe), 10).exit() == 0,
        "this machine cannot create network namespaces");
    run(List.of("ip", "netns", "del", probe), 10);
  }

  private static Run run(List<String> cmd, long timeoutSeconds) throws Exception {
    Path out = Files.createTempFile("nwstb", ".log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(HOME.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroy(); // the harness cleans its namespaces and mounts up on TERM
      p.waitFor(30, TimeUnit.SECONDS);
      p.destroyForcibly();
    }
    String text = Files.readString(out);
    Files.delete(out);
    return new Run(p.isAlive() ? -1 : p.exitValue(), text);
  }

  /**
   * Every fault prints its figure line and passes, and the load's acknowledged measurements are
   * stored exactly once at the end.
   */
  @Test
  @Timeout(1500)
  void everyFault_keepsItsPromise_andTheLoadIsStoredExactlyOnce() throws Exception {
    assumeTestbed();
    Run r = run(List.of(HOME.resolve("testbed/faults").toString()), 1440);
    System.out.println(r.output());
    for (String f : FAULTS) {
      assertTrue(
          r.output()
              .lines()
              .anyMatch(l -> l.startsWith("FAULT " + f + ": ") && l.endsWith(" PASS")),
          "no passing line for " + f + ":\n" + r.output());
    }
    assertTrue(
        r.output()
            .lines()
            .anyMatch(l -> l.startsWith("FAULT load: every fault's load, exactly-once yes")),
        "the load was not stored exactly once:\n" + r.output());
    assertEquals(0, r.exit(), "testbed/faults failed:\n" + r.output());
  }
}
