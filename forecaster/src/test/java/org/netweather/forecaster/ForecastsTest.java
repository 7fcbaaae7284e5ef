package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.netweather.api.v1.Forecast;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.ForecastResult;

class ForecastsTest {
  /** A result with the given value and an interval of value +/- 1.96 * 0.1 (MSE 0.01). */
  private static Forecast wire(String series, double value) {
    return Forecasts.toProto(
        series, ForecastResult.of(value, 0.01, 0.08, "holt-0.80-0.20", 50, Criterion.MSE), 1, 1);
  }

  @Test
  void cpuAvailability_staysWithinZeroAndOne() {
    Forecast f = wire("cpu.availability:alpha", 1.03);
    assertEquals(1.0, f.getValue());
    assertEquals(1.03 - ForecastResult.Z95 * 0.1, f.getInterval().getLower(), 1e-12);
    assertEquals(1.0, f.getInterval().getUpper());
    assertEquals(0.01, f.getMse(), "the error record is the battery's");

    Forecast low = wire("cpu.availability:alpha", 0.05);
    assertEquals(0.05, low.getValue());
    assertEquals(0.0, low.getInterval().getLower());
  }

  @Test
  void latency_neverBelowZero() {
    Forecast f = wire("tcp.latency:alpha->beta", -0.02);
    assertEquals(0.0, f.getValue());
    assertEquals(0.0, f.getInterval().getLower());
    assertEquals(-0.02 + ForecastResult.Z95 * 0.1, f.getInterval().getUpper(), 1e-12);
  }

  @Test
  void interferenceAndUserSeries_areLeftAsForecast() {
    // Interference rates may be slightly negative (a fitted slope); user series have no range.
    Forecast slope = wire("interference.send:alpha->beta", -0.3);
    assertEquals(-0.3, slope.getValue());
    assertEquals(-0.3 - ForecastResult.Z95 * 0.1, slope.getInterval().getLower(), 1e-12);
    assertEquals(-5.0, wire("queue.depth:alpha", -5.0).getValue());
    assertEquals(-5.0, wire("not a series name", -5.0).getValue());
  }
}
