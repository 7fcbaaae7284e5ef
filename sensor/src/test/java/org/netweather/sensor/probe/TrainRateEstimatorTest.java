package org.netweather.sensor.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TrainRateEstimatorTest {

  private static final long MS = 1_000_000;

  private final TrainRateEstimator train = new TrainRateEstimator(100 * MS, 0.03, 4);

  @Test
  void add_constantRate_convergesAtMinimumDurationWithExactRate() {
    long t = 0;
    while (!train.add((long) (t / 1e9 * 25e6), t)) {
      t += 5 * MS;
    }

    assertEquals(100 * MS, t);
    assertEquals(25e6, train.bytesPerSecond(), 25e6 * 1e-6);
  }

  @Test
  void add_slowStartRamp_convergesOnlyOnThePlateau() {
    // Rate doubles every 20 ms (a slow start on a 20 ms RTT) until it reaches 25 MB/s at 160 ms.
    double bytes = 0;
    double rate = 25e6 / 256;
    long convergedAt = -1;
    for (long t = 5 * MS; t <= 2000 * MS; t += 5 * MS) {
      if (t % (20 * MS) == 0) {
        rate = Math.min(25e6, rate * 2);
      }
      bytes += rate * 0.005;
      if (train.add((long) bytes, t)) {
        convergedAt = t;
        break;
      }
    }

    assertTrue(convergedAt > 200 * MS, "converged during slow start at " + convergedAt / MS);
    assertEquals(25e6, train.bytesPerSecond(), 25e6 * 0.03);
  }

  @Test
  void add_shaperBurstThenSteadyRate_reportsSteadyRate() {
    // A token-bucket shaper passes a 256 KiB burst at line rate, then 10 Mbit/s.
    long t = 0;
    long bytes = 256 * 1024;
    train.add(bytes, t);
    while (!train.add(bytes, t) || t == 0) {
      t += 5 * MS;
      bytes += (long) (1.25e6 * 0.005);
    }

    assertEquals(1.25e6, train.bytesPerSecond(), 1.25e6 * 0.01);
  }

  @Test
  void add_rateStillFalling_doesNotConverge() {
    // Rate falls 10 % per 10 ms: quarters never agree within 3 %.
    double bytes = 0;
    double rate = 100e6;
    for (long t = 5 * MS; t <= 300 * MS; t += 5 * MS) {
      rate *= 0.95;
      bytes += rate * 0.005;
      assertFalse(train.add((long) bytes, t), "converged at " + t / MS);
    }
  }

  @Test
  void bytesPerSecond_fewMarks_nanThenAverage() {
    assertTrue(Double.isNaN(train.bytesPerSecond()));
    train.add(0, 0);
    train.add(1000, MS);

    assertEquals(1e6, train.bytesPerSecond(), 1e-6);
  }

  @Test
  void add_outOfOrderMark_ignored() {
    train.add(100, 10 * MS);
    train.add(50, 5 * MS);

    assertEquals(1, train.marks());
  }
}
