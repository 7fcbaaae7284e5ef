package org.netweather.sensor.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CpuTicksTest {

  @Test
  void busyCoresSince_quarterBusyOnFourCores_oneCore() {
    CpuTicks a = new CpuTicks(100, 900);
    CpuTicks b = new CpuTicks(200, 1200);

    assertEquals(1.0, b.busyCoresSince(a, 4), 1e-12);
  }

  @Test
  void busyCoresSince_noTicksElapsed_nan() {
    CpuTicks a = new CpuTicks(100, 900);

    assertTrue(Double.isNaN(a.busyCoresSince(a, 4)));
  }
}
