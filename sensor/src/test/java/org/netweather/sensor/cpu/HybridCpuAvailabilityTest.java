package org.netweather.sensor.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HybridCpuAvailabilityTest {

  private int probes;

  private ActiveCpuProbe probeReturning(double v) {
    return () -> {
      probes++;
      return v;
    };
  }

  @Test
  void check_firstCheck_probesAndReportsActive() {
    HybridCpuAvailability h = new HybridCpuAvailability(new ActiveProbeFuse(30, 1));

    CpuEstimate e = h.check(new PassiveCpu(1.0, 1.0), probeReturning(0.5));

    assertTrue(e.probed());
    assertEquals(0.5, e.available(), 1e-12);
    assertEquals(-0.5, e.bias(), 1e-12);
  }

  @Test
  void check_betweenProbes_correctsPassiveByLastBias() {
    // A 0.5-CPU quota the passive signals cannot see: the bias carries it.
    HybridCpuAvailability h = new HybridCpuAvailability(new ActiveProbeFuse(30, 1));
    h.check(new PassiveCpu(1.0, 1.0), probeReturning(0.5));

    CpuEstimate e = h.check(new PassiveCpu(0.9, 0.9), probeReturning(0.0));

    assertFalse(e.probed());
    assertEquals(1, probes);
    assertEquals(0.4, e.available(), 1e-12);
  }

  @Test
  void check_probe_choosesPassiveMethodClosestToActive() {
    HybridCpuAvailability h = new HybridCpuAvailability(new ActiveProbeFuse(30, 1));
    // Load average lags (still 1.0), the run queue already sees the new workers (0.5).
    h.check(new PassiveCpu(1.0, 0.5), probeReturning(0.52));

    CpuEstimate next = h.check(new PassiveCpu(1.0, 0.6), probeReturning(0.0));

    assertEquals(0.6, next.passive(), 1e-12);
    assertEquals(0.62, next.available(), 1e-12);
  }

  @Test
  void check_correctedValue_clippedToUnitInterval() {
    HybridCpuAvailability h = new HybridCpuAvailability(new ActiveProbeFuse(30, 1));
    h.check(new PassiveCpu(0.5, 0.5), probeReturning(0.9));

    assertEquals(1.0, h.check(new PassiveCpu(0.8, 0.8), probeReturning(0)).available(), 1e-12);
  }

  @Test
  void check_probeUnavailable_fallsBackToPassiveAndWaitsAFuse() {
    HybridCpuAvailability h = new HybridCpuAvailability(new ActiveProbeFuse(30, 1));

    CpuEstimate e = h.check(new PassiveCpu(0.7, 0.6), probeReturning(Double.NaN));
    h.check(new PassiveCpu(0.7, 0.6), probeReturning(Double.NaN));

    assertFalse(e.probed());
    assertEquals(0.6, e.available(), 1e-12);
    assertEquals(1, probes);
  }

  @Test
  void check_noPassiveSignal_probesEveryCheck() {
    HybridCpuAvailability h = new HybridCpuAvailability(new ActiveProbeFuse(30, 1));
    PassiveCpu none = new PassiveCpu(Double.NaN, Double.NaN);

    h.check(none, probeReturning(0.8));
    CpuEstimate e = h.check(none, probeReturning(0.7));

    assertEquals(2, probes);
    assertEquals(0.7, e.available(), 1e-12);
  }
}
