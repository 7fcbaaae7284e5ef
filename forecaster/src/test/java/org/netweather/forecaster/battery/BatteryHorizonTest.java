package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Forecasts of the mean over the next k measurements against the exact means of known series. */
class BatteryHorizonTest {
  @Test
  void horizon_ramp_forecastsTheExactMeanOfTheNextSteps() {
    Battery b = BatteryLayout.standard().newBattery();
    for (int t = 0; t < 2_000; t++) {
      b.observe(3 + 0.5 * t);
    }
    // The next ten are 3 + 0.5 t for t = 2000..2009: mean 3 + 0.5 x 2004.5 = 1005.25. (The last
    // value, 1002.5, and the next value, 1003, are both off by a trend's worth.)
    ForecastResult f = b.horizon(10).forecast(Criterion.MAE);
    assertEquals(1005.25, f.value(), 1e-6);
    assertTrue(f.lower() <= 1005.25 && 1005.25 <= f.upper());
  }

  @Test
  void horizon_squareWave_overWholePeriods_forecastsItsMean() {
    Battery b = BatteryLayout.standard().newBattery();
    for (int t = 0; t < 2_000; t++) {
      b.observe((t / 5) % 2 == 0 ? 10 : 2); // period 10: five at 10, five at 2
    }
    // The next measurement is 10, but over 10 or 20 steps the mean is exactly 6.
    assertEquals(10, b.forecast(Criterion.MAE).value(), 1e-5);
    assertEquals(6, b.horizon(10).forecast(Criterion.MAE).value(), 1e-6);
    assertEquals(6, b.horizon(20).forecast(Criterion.MSE).value(), 1e-6);
  }

  @Test
  void horizon_tooLittleHistoryOrTooLong_isNullOrRejected() {
    Battery b = BatteryLayout.standard().newBattery();
    for (int t = 0; t < 79; t++) {
      b.observe(t);
    }
    assertNull(b.horizon(10)); // 7 blocks of 10: fewer than 8
    b.observe(79);
    assertEquals(8, b.horizon(10).count());
    assertThrows(IllegalArgumentException.class, () -> b.horizon(0));
    assertThrows(IllegalArgumentException.class, () -> b.horizon(Battery.maxHorizonSteps() + 1));
  }
}
