package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs testbed/distributed from the test command: a site on several machines, every daemon its own
 * process in a namespace of its own (a ZooKeeper ensemble of three, two nameservers, a memory-host,
 * three forecasters sharing the shards, a proxy, real sensors and a simulated load), with a
 * forecaster killed, a forecaster cut off, a nameserver killed, the ZooKeeper leader killed and a
 * ZooKeeper follower cut off in turn, each fault's outcome asserted by the harness. It needs root,
 * iproute2, python3, curl and javac; elsewhere it is skipped.
 */
class DistributedTestbedIT {
  private static final List<String> FAULTS = List.of("F2", "F4", "F5", "F1", "F6");

  /** Every fault prints its figure line and passes, and the load is stored exactly once. */
  @Test
  @Timeout(1200)
  void everyFault_keepsItsPromise_andTheLoadIsStoredExactlyOnce() throws Exception {
    TestbedHarness.assumeTestbed("the testbed", List.of("ip", "python3", "curl", "javac"));
    TestbedHarness.Run r =
        TestbedHarness.run(
            List.of(TestbedHarness.HOME.resolve("testbed/distributed").toString()), 1140);
    System.out.println(r.output());
    TestbedHarness.assertEveryFaultPassed(r, FAULTS);
    assertTrue(
        r.output().lines().anyMatch(l -> l.startsWith("FAULT load: exactly-once yes")),
        "the load was not stored exactly once:\n" + r.output());
    assertEquals(0, r.exit(), "testbed/distributed failed:\n" + r.output());
  }
}
