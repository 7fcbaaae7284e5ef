package org.netweather.forecaster.battery;

/**
 * Replays a series through a fresh battery as the forecaster follows it, and keeps the forecast
 * served before each measurement: what {@code nws plot} and the dashboard draw as the forecast line
 * and its band. One computation, so the band drawn is the interval the forecaster serves: the same
 * coverage ({@link Battery#DEFAULT_COVERAGE} unless asked otherwise) and clipped to the resource's
 * physical range.
 */
public final class ForecastReplay {
  private ForecastReplay() {}

  /**
   * One-step forecasts of {@code values}: element {@code i < n} is the forecast served just before
   * {@code values[i]} was seen (null for the first, before any measurement), element {@code n} the
   * forecast of the measurement after the last (null if {@code values} is empty).
   *
   * @param coverage the interval's coverage, in [0.50, 0.99]
   */
  public static ForecastResult[] oneStep(
      BatteryLayout layout,
      double[] values,
      Criterion criterion,
      double coverage,
      PhysicalRange range) {
    ForecastResult[] out = new ForecastResult[values.length + 1];
    Battery battery = layout.newBattery();
    for (int i = 0; i <= values.length; i++) {
      if (battery.count() > 0) {
        out[i] = range.clip(battery.forecast(criterion, coverage));
      }
      if (i < values.length) {
        battery.observe(values[i]);
      }
    }
    return out;
  }
}
