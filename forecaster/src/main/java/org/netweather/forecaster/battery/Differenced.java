package org.netweather.forecaster.battery;

/**
 * Forecasts a series by forecasting its changes with another predictor: x(t+1) = x(t) + f(dx),
 * where f sees only the first differences. An AR model on differences is an ARIMA(p, 1, 0), which
 * follows a drifting level that an AR on the levels pulls back to its mean (Box, Jenkins, Reinsel,
 * "Time Series Analysis: Forecasting and Control", 4th ed., Wiley 2008, §4). O(1) plus the inner
 * predictor's cost per measurement.
 */
final class Differenced implements Predictor {
  private final Predictor changes;
  private final String name;
  private double last = Double.NaN;
  private double forecastChange;

  Differenced(Predictor changes, String name) {
    this.changes = changes;
    this.name = name;
  }

  @Override
  public void observe(double value) {
    if (!Double.isNaN(last)) {
      double next = changes.update(value - last);
      forecastChange = Double.isFinite(next) ? next : 0;
    }
    last = value;
  }

  @Override
  public double predict() {
    return last + forecastChange;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(4 + 4 + 8 + 8) + changes.stateBytes();
  }
}
