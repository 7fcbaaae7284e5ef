package org.netweather.cli.plot;

import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.ForecastResult;

/**
 * One series to draw: its measurements and, for each, the forecast the battery made for it one step
 * before (value and 95 % interval), found by replaying the measurements through a battery as the
 * forecaster does; and the forecast of the next measurement after the last.
 */
record PlotSeries(
    String name,
    String unit,
    long[] times,
    double[] values,
    double[] forecast,
    double[] lower,
    double[] upper,
    ForecastResult next) {

  static PlotSeries of(String name, String unit, long[] times, double[] values, Criterion c) {
    int n = values.length;
    double[] forecast = new double[n];
    double[] lower = new double[n];
    double[] upper = new double[n];
    Battery battery = BatteryLayout.standard().newBattery();
    for (int i = 0; i < n; i++) {
      if (battery.count() == 0) {
        forecast[i] = lower[i] = upper[i] = Double.NaN;
      } else {
        ForecastResult r = battery.forecast(c, 0.95); // the chart draws a 95 % band
        forecast[i] = r.value();
        lower[i] = r.lower();
        upper[i] = r.upper();
      }
      battery.observe(values[i]);
    }
    return new PlotSeries(
        name,
        unit,
        times,
        values,
        forecast,
        lower,
        upper,
        n == 0 ? null : battery.forecast(c, 0.95));
  }
}
