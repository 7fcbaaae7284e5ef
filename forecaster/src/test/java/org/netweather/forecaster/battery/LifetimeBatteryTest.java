package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LifetimeBatteryTest {

  @Test
  void observe_acrossEpochs_feedsEpochMeans() {
    LifetimeBattery lifetime = new LifetimeBattery(BatteryLayout.faithful(), 1000);
    lifetime.observe(0, 1);
    lifetime.observe(400, 3); // epoch [0, 1000): mean 2
    assertEquals(0, lifetime.epochs());
    lifetime.observe(1000, 10); // closes the first epoch
    assertEquals(1, lifetime.epochs());
    assertEquals(2.0, lifetime.forecast(Criterion.MAE).value(), 0);
    lifetime.observe(3500, 20); // closes [1000, 2000) with mean 10; [2000, 3000) was empty
    assertEquals(2, lifetime.epochs());
    assertEquals(20.0, lifetime.openEpochMean(), 0);
    lifetime.observe(3999, 30);
    assertEquals(25.0, lifetime.openEpochMean(), 0);
    assertEquals(2, lifetime.epochs());
    lifetime.observe(4000, 0); // [3000, 4000) closes with mean 25
    assertEquals(3, lifetime.epochs());
    assertEquals(25.0, lifetime.battery().memberForecast(0), 0); // last value of the means
  }

  @Test
  void constructor_nonPositiveLifetime_throws() {
    assertThrows(
        IllegalArgumentException.class, () -> new LifetimeBattery(BatteryLayout.faithful(), 0));
  }
}
