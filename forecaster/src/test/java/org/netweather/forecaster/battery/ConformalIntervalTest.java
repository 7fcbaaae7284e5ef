package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The served forecast's 95 % interval holds its coverage where a normal interval does not: on a
 * series whose noise changes (quiet, then five times louder, then heavy-tailed), the share of
 * measurements inside stays within two points of 95 % over the whole series and in each regime once
 * the interval has had {@code 1/γ} steps to adapt.
 */
class ConformalIntervalTest {
  @Test
  void coverage_holdsThroughChangingNoise() {
    Random r = new Random(42);
    int n = 9_000;
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      double noise =
          i < 3_000
              ? r.nextGaussian()
              : i < 6_000 ? 5 * r.nextGaussian() : 2 * Math.tan(Math.PI * (r.nextDouble() - 0.5));
      v[i] = 50 + 10 * Math.sin(i / 40.0) + noise;
    }
    Battery b = BatteryLayout.standard().newBattery();
    int[] inside = new int[3];
    int[] scored = new int[3];
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        ForecastResult f = b.forecast(Criterion.MSE, 0.95);
        int regime = i / 3_000;
        if (i % 3_000 >= 400 && Double.isFinite(f.lower())) {
          scored[regime]++;
          inside[regime] += f.lower() <= v[i] && v[i] <= f.upper() ? 1 : 0;
        }
      }
      b.observe(v[i]);
    }
    double all = (double) Arrays.stream(inside).sum() / Arrays.stream(scored).sum();
    assertEquals(0.95, all, 0.02, "overall coverage");
    for (int k = 0; k < 3; k++) {
      double c = (double) inside[k] / scored[k];
      assertTrue(Math.abs(c - 0.95) <= 0.02, "regime " + k + " coverage " + c);
    }
  }

  /**
   * Noise that doubles mid-way: at every requested coverage the one-step coverage is within two
   * points of the request before the change, dips while the window still holds the quiet errors,
   * and is back within two points over the 1 000 steps that start {@value #RECOVERY} steps after
   * the change.
   */
  private static final int RECOVERY = 300;

  @Test
  void coverage_noiseDoublesMidway_recoversWithinRecoverySteps() {
    int n = 8_000;
    int change = 4_000;
    double[] v = new double[n];
    Random r = new Random(7);
    for (int i = 0; i < n; i++) {
      v[i] = 20 + 5 * Math.sin(i / 25.0) + (i < change ? 1 : 2) * r.nextGaussian();
    }
    for (double coverage : new double[] {0.50, 0.75, 0.90, 0.95, 0.99}) {
      Battery b = BatteryLayout.standard().newBattery();
      int before = 0;
      int beforeIn = 0;
      int after = 0;
      int afterIn = 0;
      int dip = 0;
      int dipIn = 0;
      for (int i = 0; i < n; i++) {
        if (i >= 1_000) {
          ForecastResult f = b.forecast(Criterion.MAE, coverage);
          assertEquals(coverage, f.coverage());
          boolean in = f.lower() <= v[i] && v[i] <= f.upper();
          if (i < change) {
            before++;
            beforeIn += in ? 1 : 0;
          } else if (i < change + 100) {
            dip++;
            dipIn += in ? 1 : 0;
          } else if (i >= change + RECOVERY && i < change + RECOVERY + 1_000) {
            after++;
            afterIn += in ? 1 : 0;
          }
        }
        b.observe(v[i]);
      }
      assertEquals(coverage, (double) beforeIn / before, 0.02, "before, at " + coverage);
      assertEquals(coverage, (double) afterIn / after, 0.02, "recovered, at " + coverage);
      if (coverage < 0.99) {
        // The change is felt: right after it the quiet window covers less than asked.
        assertTrue((double) dipIn / dip < coverage - 0.02, "dip at " + coverage);
      }
    }
  }

  @Test
  void halfWidth_matchesTheSplitConformalRankOfTheWindow() {
    Random r = new Random(1);
    ConformalInterval interval = new ConformalInterval();
    float[] window = new float[ConformalInterval.WINDOW];
    for (int step = 0; step < 1_000; step++) {
      double e = r.nextInt(50) / 4.0; // many ties
      // Before scoring e: the half-width is the quantile of the last WINDOW errors at 1 - α_t.
      int n = Math.min(step, ConformalInterval.WINDOW);
      if (n >= ConformalInterval.MIN_ERRORS) {
        float[] sorted = Arrays.copyOf(window, n);
        Arrays.sort(sorted);
        for (double q : new double[] {0.5, 0.9, 0.95, 0.99}) {
          double p = 1 - interval.adjustedAlpha(q);
          int k = p >= 1 ? n - 1 : (int) Math.ceil(p * (n + 1)) - 1;
          double expected = p <= 0 ? 0 : sorted[Math.max(0, Math.min(n - 1, k))];
          assertEquals(expected, interval.halfWidth(q), 0, "step " + step + " q " + q);
        }
      }
      interval.score(e);
      if (step < ConformalInterval.WINDOW) {
        window[step] = (float) e;
      } else {
        window[step % ConformalInterval.WINDOW] = (float) e;
      }
    }
  }

  @Test
  void adjustedAlpha_betweenAnchors_interpolatesAndRejectsOutOfRange() {
    ConformalInterval interval = new ConformalInterval();
    assertEquals(0.10, interval.adjustedAlpha(0.90), 1e-12);
    assertEquals(0.15, interval.adjustedAlpha(0.85), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> interval.adjustedAlpha(0.995));
    assertThrows(IllegalArgumentException.class, () -> interval.adjustedAlpha(0.4));
  }
}
