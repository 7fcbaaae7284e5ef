package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        ForecastResult f = b.forecast(Criterion.MSE);
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

  @Test
  void select_findsTheKthSmallest() {
    Random r = new Random(1);
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + r.nextInt(60);
      float[] a = new float[n];
      for (int i = 0; i < n; i++) {
        a[i] = r.nextInt(10); // many ties
      }
      float[] sorted = a.clone();
      Arrays.sort(sorted);
      int k = r.nextInt(n);
      assertEquals(sorted[k], ConformalInterval.select(a.clone(), n, k));
    }
  }
}
