package org.netweather.sensor.host;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Reads this machine through OSHI: sanity of ranges only, no particular values. */
class OshiHostMetricsTest {

  private final OshiHostMetrics host = new OshiHostMetrics();

  @Test
  void readings_thisMachine_plausibleRanges() {
    assertTrue(host.logicalProcessors() >= 1);
    assertTrue(host.cpus() > 0 && host.cpus() <= host.logicalProcessors());
    assertTrue(host.totalMemoryBytes() > 0);
    assertTrue(host.availableMemoryBytes() > 0);
    assertTrue(host.availableMemoryBytes() <= host.totalMemoryBytes());
    double runnable = host.runnableTasks();
    assertTrue(Double.isNaN(runnable) || runnable >= 0);
    host.cgroupMemoryLimitBytes().ifPresent(l -> assertTrue(l > 0));
  }

  @Test
  void cpuTicks_twoReadings_neverGoBackwards() {
    CpuTicks a = host.cpuTicks();
    CpuTicks b = host.cpuTicks();

    assertTrue(b.busy() >= a.busy() && b.idle() >= a.idle());
  }
}
