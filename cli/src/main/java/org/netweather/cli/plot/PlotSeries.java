package org.netweather.cli.plot;

import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.ForecastReplay;
import org.netweather.forecaster.battery.ForecastResult;
import org.netweather.forecaster.battery.PhysicalRange;

/**
 * One series to draw: its measurements and, for each, the forecast the battery made for it one step
 * before (value and interval at {@code coverage}, clipped to the resource's range), found by
 * replaying the measurements through a battery as the forecaster does ({@link ForecastReplay}); and
 * the forecast of the next measurement after the last.
 */
record PlotSeries(
    String name,
    String unit,
    long[] times,
    double[] values,
    double[] forecast,
    double[] lower,
    double[] upper,
    ForecastResult next,
    double coverage) {

  static PlotSeries of(
      String name,
      String unit,
      long[] times,
      double[] values,
      Criterion c,
      double coverage,
      PhysicalRange range) {
    int n = values.length;
    double[] forecast = new double[n];
    double[] lower = new double[n];
    double[] upper = new double[n];
    ForecastResult[] served =
        ForecastReplay.oneStep(BatteryLayout.standard(), values, c, coverage, range);
    for (int i = 0; i < n; i++) {
      ForecastResult r = served[i];
      forecast[i] = r == null ? Double.NaN : r.value();
      lower[i] = r == null ? Double.NaN : r.lower();
      upper[i] = r == null ? Double.NaN : r.upper();
    }
    return new PlotSeries(name, unit, times, values, forecast, lower, upper, served[n], coverage);
  }
}
