package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * One absurd measurement (1e308 in a series near 100) must not poison a series: its forecast, MSE
 * and MAE stay finite, and once the members that swallowed it have lost, the served forecast is as
 * good as that of a battery that never saw it.
 */
class BatteryPoisonTest {
  private static double[] series(int n, long seed) {
    Random r = new Random(seed);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = 100 + 10 * Math.sin(i / 15.0) + r.nextGaussian() * 2;
    }
    return v;
  }

  @Test
  void anAbsurdValue_leavesForecastsFinite_andTheServedErrorRecovers() {
    double[] v = series(1_200, 7);
    Battery clean = BatteryLayout.standard().newBattery();
    Battery poisoned = BatteryLayout.standard().newBattery();
    double cleanError = 0;
    double poisonedError = 0;
    for (int i = 0; i < v.length; i++) {
      if (i >= 900) { // well after the spike: members that kept it must have lost by now
        cleanError += Math.abs(clean.forecast(Criterion.MAE).value() - v[i]);
        poisonedError += Math.abs(poisoned.forecast(Criterion.MAE).value() - v[i]);
      }
      clean.observe(v[i]);
      poisoned.observe(i == 400 ? 1e308 : v[i]);
      if (i >= 400) {
        for (Criterion c : Criterion.values()) {
          ForecastResult f = poisoned.forecast(c);
          assertTrue(Double.isFinite(f.value()), i + ": forecast " + f);
          assertTrue(Double.isFinite(f.mse()) && Double.isFinite(f.mae()), i + ": errors " + f);
          assertTrue(Double.isFinite(f.lower()) && Double.isFinite(f.upper()), i + ": " + f);
        }
      }
    }
    assertTrue(
        poisonedError <= 1.05 * cleanError,
        "served error after the spike " + poisonedError + " vs never poisoned " + cleanError);
    assertTrue(
        !poisoned.forecast(Criterion.MSE).method().equals("last-value")
            || clean.forecast(Criterion.MSE).method().equals("last-value"),
        "not stuck on last-value: " + poisoned.forecast(Criterion.MSE).method());
  }
}
