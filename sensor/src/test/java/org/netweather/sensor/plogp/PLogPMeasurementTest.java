package org.netweather.sensor.plogp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** docs/schedulers/clusters.md, worked cases P5: the logp_mpi estimator on a simulated link. */
class PLogPMeasurementTest {
  private static final double L = 50e-6;

  private static double gapOf(double m) {
    return 5e-6 + m / 100e6;
  }

  private static SimulatedLink linear(double noise) {
    return new SimulatedLink(
        L, PLogPMeasurementTest::gapOf, m -> 1e-6 + m / 1e9, m -> 2e-6 + m / 5e8, noise, 42);
  }

  @Test
  void measure_linearLink_recoversLAndGExactly() {
    SimulatedLink link = linear(0);
    PLogPParameters p = new PLogPMeasurement(link, PLogPMeasurement.Settings.defaults()).measure();
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
    assertEquals(gapOf(100_000), p.gap(100_000), 1e-15); // interpolated
    assertEquals(gapOf(1 << 20), p.gap(1 << 20), 1e-15); // extrapolated
  }

  @Test
  void measure_rendezvousJump_insertsSizesAroundIt() {
    // Messages of 64 KiB and more pay a 200 µs handshake (eager → rendezvous).
    SimulatedLink link =
        new SimulatedLink(L, m -> gapOf(m) + (m >= 65536 ? 200e-6 : 0), m -> 1e-6, m -> 2e-6, 0, 1);
    PLogPMeasurement.Settings s =
        new PLogPMeasurement.Settings(1024, 256 * 1024, 0.01, 0.1, 50, 64);
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
    PLogPParameters p =
        new PLogPMeasurement(linear(0.01), PLogPMeasurement.Settings.defaults()).measure();
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

  // Loopback as a shared 2-core host saw it: g(0) 1 µs, 2 GB/s, RTT(0) = 2L + 2g(0) = 20 µs.
  private static final double LOOP_L = 9e-6;

  private static double loopGap(double m) {
    return 1e-6 + m / 2e9;
  }

  /**
   * After saturation, round trips ran 60 µs slower for a while (on loopback RTT(0) read 80 µs there
   * against 16-23 µs before and after): the old estimator took an RTT(0) from that spell as the
   * reference of every g(m), so each size timed after the spell got about 60 µs less, g(16 KiB) =
   * −51 µs (its noise fallback lifted RTT(m) to the smallest RTT(0) but kept the slow mean as
   * reference). Timing RTT(0) and RTT(m) in alternation puts both in one spell. This spell outlasts
   * the settling after saturation, which gives up after 256 round trips.
   */
  @Test
  void measure_roundTripsSlowAfterSaturation_gapsStillExact() {
    SimulatedLink link =
        new SimulatedLink(LOOP_L, PLogPMeasurementTest::loopGap, m -> 0.5e-6, m -> 0.8e-6, 0, 1);
    PLogPChannel slowSpell =
        new ForwardingChannel(link) {
          int slowLeft;

          @Override
          public double burst(int count, int bytes) {
            slowLeft = count >= 1024 ? 300 : slowLeft;
            return super.burst(count, bytes);
          }

          @Override
          public double roundTrip(int bytes) {
            return super.roundTrip(bytes) + (slowLeft-- > 0 ? 60e-6 : 0);
          }
        };
    PLogPParameters p =
        new PLogPMeasurement(slowSpell, PLogPMeasurement.Settings.defaults()).measure();

    for (double m : p.sizes()) {
      assertEquals(loopGap(m), p.gap(m), 1e-12, "g(" + m + ")");
    }
    assertEquals(LOOP_L, p.latency(), 1e-12);
  }

  /**
   * pLogP: a message cannot leave sooner than its send call returns, nor be taken sooner than its
   * receive call does, so g(m) >= os(m), or(m) (logp_mpi's FIXUP_G); and L = RTT(0)/2 − g(0) is
   * floored at 0 as logp_mpi does ("L unknown") rather than reported negative.
   */
  @Test
  void measure_overheadsAboveWireGap_gapRaisedToThemAndLNotNegative() {
    // The send call copies at 1 GB/s, the wire takes 2 GB/s; receiving costs 1.5 µs flat.
    SimulatedLink link =
        new SimulatedLink(
            1e-6, PLogPMeasurementTest::loopGap, m -> 3e-6 + m / 1e9, m -> 1.5e-6, 0, 1);
    PLogPParameters p = new PLogPMeasurement(link, PLogPMeasurement.Settings.defaults()).measure();

    for (double m : p.sizes()) {
      assertEquals(3e-6 + m / 1e9, p.gap(m), 1e-12, "g(" + m + ") = os(" + m + ")");
      assertEquals(3e-6 + m / 1e9, p.sendOverhead(m), 1e-12);
      assertEquals(1.5e-6, p.receiveOverhead(m), 1e-12);
    }
    // RTT(0)/2 − g(0) = 2 µs − 3 µs.
    assertEquals(0, p.latency());
  }

  /**
   * The first round trips of a cold connection took 100 ms, longer than the longest saturation
   * train, so (T(n) − RTT(0))/(n − 1) stayed negative: the train's own T(n)/n, an upper bound,
   * stands in for g(0) then.
   */
  @Test
  void measure_firstRoundTripsSlowerThanEveryTrain_g0FromTheTrainAlone() {
    SimulatedLink link =
        new SimulatedLink(LOOP_L, PLogPMeasurementTest::loopGap, m -> 0.1e-6, m -> 0.1e-6, 0, 1);
    PLogPChannel cold =
        new ForwardingChannel(link) {
          int roundTrips;

          @Override
          public double roundTrip(int bytes) {
            return super.roundTrip(bytes) + (roundTrips++ < 3 ? 0.1 : 0);
          }
        };
    PLogPParameters p = new PLogPMeasurement(cold, PLogPMeasurement.Settings.defaults()).measure();

    assertEquals(loopGap(0), p.gap(0), 0.01 * loopGap(0));
    assertEquals(LOOP_L, p.latency(), 0.02 * LOOP_L);
  }

  /**
   * One-sided, bimodal noise with spikes and a slow spell after saturation, as a shared host's
   * loopback gives, where g(m) for small m is 1 µs and RTT(0) 20 µs. Every reported parameter must
   * stay physical: L >= 0, g(m) >= g(0) > 0, g(m) >= os(m), or(m); and g of a size where the wire
   * dominates stays close.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void measure_shakyLoopback_everyParameterPhysical(long seed) {
    SimulatedLink link =
        new SimulatedLink(
            LOOP_L,
            PLogPMeasurementTest::loopGap,
            m -> 0.5e-6 + m / 8e9,
            m -> 0.8e-6 + m / 8e9,
            0,
            seed);
    PLogPParameters p =
        new PLogPMeasurement(
                new ShakyLink(link, 60e-6, 100, seed), PLogPMeasurement.Settings.defaults())
            .measure();

    String table = table(p);
    assertTrue(p.latency() >= 0, table);
    assertTrue(p.gap(0) > 0, table);
    for (double m : p.sizes()) {
      assertTrue(p.gap(m) >= p.gap(0), "g(" + m + ") < g(0)\n" + table);
      assertTrue(p.gap(m) >= p.sendOverhead(m), "g(" + m + ") < os\n" + table);
      assertTrue(p.gap(m) >= p.receiveOverhead(m), "g(" + m + ") < or\n" + table);
    }
    assertEquals(loopGap(262144), p.gap(262144), 0.1 * loopGap(262144), table);
  }

  private static String table(PLogPParameters p) {
    StringBuilder b = new StringBuilder(String.format("L %.3f us%n", p.latency() * 1e6));
    for (double m : p.sizes()) {
      b.append(
          String.format(
              "%8d g %8.3f os %8.3f or %8.3f%n",
              (long) m, p.gap(m) * 1e6, p.sendOverhead(m) * 1e6, p.receiveOverhead(m) * 1e6));
    }
    return b.toString();
  }
}
