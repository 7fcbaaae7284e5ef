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
 * Runs testbed/distributed from the test command: a site on several machines, every daemon its own
 * process in a namespace of its own (a ZooKeeper ensemble of three, two nameservers, a memory-host,
 * three forecasters sharing the shards, a proxy, real sensors and a simulated load), with a
 * forecaster, a nameserver and the ZooKeeper leader killed in turn, each fault's outcome asserted
 * by the harness. It needs root, iproute2, python3, curl and javac; elsewhere it is skipped.
 */
class DistributedTestbedIT {
  private static final Path HOME =
      Path.of(System.getProperty("netweather.home", "..")).toAbsolutePath().normalize();
  private static final List<String> FAULTS = List.of("F2", "F5", "F1");

  private record Run(int exit, String output) {}

  private static void assumeTestbed() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "the testbed needs root");
    for (String tool : List.of("ip", "python3", "curl", "javac")) {
      assumeTrue(
          run(List.of("sh", "-c", "command -v " + tool), 10).exit() == 0,
          "the testbed needs " + tool + " (.ci/run installs it)");
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
      p.destroy(); // the harness kills its daemons and deletes its namespaces on TERM
      p.waitFor(30, TimeUnit.SECONDS);
      p.destroyForcibly();
    }
    String text = Files.readString(out);
    Files.delete(out);
    return new Run(p.isAlive() ? -1 : p.exitValue(), text);
  }

  /** Every fault prints its figure line and passes, and the load is stored exactly once. */
  @Test
  @Timeout(900)
  void everyFault_keepsItsPromise_andTheLoadIsStoredExactlyOnce() throws Exception {
    assumeTestbed();
    Run r = run(List.of(HOME.resolve("testbed/distributed").toString()), 840);
    System.out.println(r.output());
    for (String f : FAULTS) {
      assertTrue(
          r.output()
              .lines()
              .anyMatch(l -> l.startsWith("FAULT " + f + ": ") && l.endsWith(" PASS")),
          "no passing line for " + f + ":\n" + r.output());
    }
    assertTrue(
        r.output().lines().anyMatch(l -> l.startsWith("FAULT load: exactly-once yes")),
        "the load was not stored exactly once:\n" + r.output());
    assertEquals(0, r.exit(), "testbed/distributed failed:\n" + r.output());
  }
}
