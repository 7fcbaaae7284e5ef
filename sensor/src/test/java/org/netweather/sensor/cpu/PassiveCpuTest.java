package org.netweather.sensor.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PassiveCpuTest {

  @Test
  void forNewProcess_twoCoresWithZeroToThreeBusyWorkers_fairShare() {
    // The testbed's targets: 0..3 CPU-bound workers on 2 cores leave a newcomer 1, 1, 2/3, 1/2.
    assertEquals(1.0, PassiveCpu.forNewProcess(2, 0), 1e-12);
    assertEquals(1.0, PassiveCpu.forNewProcess(2, 1), 1e-12);
    assertEquals(2.0 / 3, PassiveCpu.forNewProcess(2, 2), 1e-12);
    assertEquals(0.5, PassiveCpu.forNewProcess(2, 3), 1e-12);
  }

  @Test
  void from_runQueueAboveBusyCores_usesRunQueue() {
    // Three workers saturate two cores: ticks say 2 busy, the run queue says 3 want a core.
    PassiveCpu p = PassiveCpu.from(2, 0.2, 3, 2.0);

    assertEquals(0.5, p.runQueue(), 1e-12);
    assertEquals(1.0, p.loadAverage(), 1e-12);
  }

  @Test
  void from_busyCoresAboveInstantRunQueue_usesBusyCores() {
    // A bursty worker that happened to be asleep at the instant of the sample.
    PassiveCpu p = PassiveCpu.from(1, 1, 0, 0.6);

    assertEquals(1 / 1.6, p.runQueue(), 1e-12);
  }

  @Test
  void from_noTicksYet_usesRunQueueAlone() {
    assertEquals(2.0 / 3, PassiveCpu.from(2, 0, 2, Double.NaN).runQueue(), 1e-12);
  }

  @Test
  void from_unknownRunQueue_nan() {
    assertTrue(Double.isNaN(PassiveCpu.from(2, 1, Double.NaN, Double.NaN).runQueue()));
  }
}
