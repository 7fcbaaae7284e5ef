package org.netweather.sensor.plogp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** schedulers.md §4b P5: the logp_mpi estimator on a simulated link. */
class PLogPMeasurementTest {
  private static final double L = 50e-6;

  private static double gapOf(double m) {
    return 5e-6 + m / 100e6;
  }

  private static SimulatedLink linear(double noise) {
    return new SimulatedLink(L, PLogPMeasurementTest::gapOf, m -> 1e-6 + m / 1e9,
        m -> 2e-6 + m / 5e8, noise, 42);
  }

  @Test
  void measure_linearLink_recoversLAndGExactly() {
    SimulatedLink link = linear(0);
    PLogPParameters p = new PLogPMeasurement(link, PLogPMeasurement.Settings.defaults())
        .measure();
    // L = RTT(0)/2 − g(0) and g(m) = RTT(m) − RTT(0) + g(0) reproduce the link's own values.
    double rtt0 = link.roundTrip(0);
    assertEquals(rtt0 / 2 - gapOf(0), p.latency(), 1e-15);
    assertEquals(L, p.latency(), 1e-15);
    for (double m : p.sizes()) {
      double formula = link.roundTrip((int) m) - rtt0 + gapOf(0);
      assertEquals(formula, p.gap(m), 1e-15);
      assertEquals(gapOf(m), p.gap(m), 1e-15);
      assertEquals(1e-6 + m / 1e9, p.sendOverhead(m), 1e-15);
      assertEquals(2e-6 + m / 5e8, p.receiveOverhead(m), 1e-15);
    }
    // A linear link needs no extra sizes: 0, then 1, 2, 4, ... 256 KiB, and 512 KiB to confirm
    // the curve is linear past maxSize.
    assertEquals(21, p.sizes().length, Arrays.toString(p.sizes()));
    assertEquals(gapOf(100_000), p.gap(100_000), 1e-15);   // interpolated
    assertEquals(gapOf(1 << 20), p.gap(1 << 20), 1e-15);   // extrapolated
  }

  @Test
  void measure_rendezvousJump_insertsSizesAroundIt() {
    // Messages of 64 KiB and more pay a 200 µs handshake (eager → rendezvous).
    SimulatedLink link = new SimulatedLink(L, m -> gapOf(m) + (m >= 65536 ? 200e-6 : 0),
        m -> 1e-6, m -> 2e-6, 0, 1);
    PLogPMeasurement.Settings s = new PLogPMeasurement.Settings(1024, 256 * 1024, 0.01, 0.1,
        50, 64);
    PLogPParameters p = new PLogPMeasurement(link, s).measure();
    double[] sizes = p.sizes();
    long between = Arrays.stream(sizes).filter(m -> m > 32768 && m < 65536).count();
    assertTrue(between >= 3, Arrays.toString(sizes));
    // Close to the jump, interpolation is right on both sides.
    assertEquals(gapOf(64000), p.gap(64000), 0.05 * gapOf(64000));
    assertEquals(gapOf(70000) + 200e-6, p.gap(70000), 0.02 * (gapOf(70000) + 200e-6));
    assertEquals(gapOf(200000) + 200e-6, p.gap(200000), 1e-12);
  }

  @Test
  void measure_noisyLink_staysWithinAFewPercent() {
    PLogPParameters p = new PLogPMeasurement(linear(0.01), PLogPMeasurement.Settings.defaults())
        .measure();
    assertEquals(L, p.latency(), 0.1 * L);
    for (double m : new double[] {0, 4096, 65536, 262144}) {
      assertEquals(gapOf(m), p.gap(m), 0.05 * gapOf(m) + 1e-6, "g(" + m + ")");
    }
  }

  @Test
  void repeat_stableTiming_stopsAfterThreeSamples() {
    SimulatedLink link = linear(0);
    PLogPMeasurement m = new PLogPMeasurement(link, PLogPMeasurement.Settings.defaults());
    int before = link.probes;
    m.repeat(() -> link.roundTrip(0));
    assertEquals(3, link.probes - before);
  }
}
