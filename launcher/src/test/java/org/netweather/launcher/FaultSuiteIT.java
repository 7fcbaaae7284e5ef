package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs testbed/faults from the test command: a namespaced site, every daemon its own process, under
 * a partition, a nameserver stall, damaged files, full disks, a fast clock, kills and floods, each
 * fault's outcome asserted by the harness. It needs root, iproute2, tmpfs mounts, javac, curl and
 * libfaketime; elsewhere the test is skipped and says why.
 */
class FaultSuiteIT {
  private static final List<String> FAULTS =
      List.of("partition", "stall", "corruption", "diskfull", "clockskew", "kills", "floods");

  /**
   * Every fault prints its figure line and passes, and the load's acknowledged measurements are
   * stored exactly once at the end.
   */
  @Test
  @Timeout(1500)
  void everyFault_keepsItsPromise_andTheLoadIsStoredExactlyOnce() throws Exception {
    TestbedHarness.assumeTestbed(
        "the fault suite", List.of("ip", "tc", "python3", "curl", "javac", "mount", "faketime"));
    TestbedHarness.Run r =
        TestbedHarness.run(List.of(TestbedHarness.HOME.resolve("testbed/faults").toString()), 1440);
    System.out.println(r.output());
    TestbedHarness.assertEveryFaultPassed(r, FAULTS);
    assertTrue(
        r.output()
            .lines()
            .anyMatch(l -> l.startsWith("FAULT load: every fault's load, exactly-once yes")),
        "the load was not stored exactly once:\n" + r.output());
    assertEquals(0, r.exit(), "testbed/faults failed:\n" + r.output());
  }
}
