package org.netweather.forecaster.battery;

import java.util.Locale;

/**
 * Forecasts level + trend, both exponentially smoothed (Holt's linear method).
 *
 * <p>Holt 1957 (repr. Int. J. Forecasting 20(1), 2004): level l = a*x + (1-a)*(l + b), trend b =
 * c*(l - l_prev) + (1-c)*b, forecast l + b. Starts with l = first measurement, b = 0. A
 * trend-following member of the kind that beat the NWS battery on host load (Yang, Foster, Schopf,
 * IPDPS 2003; docs/forecasting.md). O(1) per measurement.
 */
final class HoltTrend implements Predictor {
  private final double levelGain;
  private final double trendGain;
  private double level = Double.NaN;
  private double trend;

  HoltTrend(double levelGain, double trendGain) {
    if (!(levelGain > 0 && levelGain <= 1 && trendGain > 0 && trendGain <= 1)) {
      throw new IllegalArgumentException(
          "gains must be in (0, 1]: " + levelGain + ", " + trendGain);
    }
    this.levelGain = levelGain;
    this.trendGain = trendGain;
  }

  @Override
  public void observe(double value) {
    if (Double.isNaN(level)) {
      level = value;
      return;
    }
    double previous = level;
    level = levelGain * value + (1 - levelGain) * (level + trend);
    trend = trendGain * (level - previous) + (1 - trendGain) * trend;
  }

  @Override
  public double update(double value) {
    observe(value); // this class is final: both calls inline here
    return predict();
  }

  @Override
  public double predict() {
    return level + trend;
  }

  @Override
  public String name() {
    return String.format(Locale.ROOT, "holt-%.2f-%.2f", levelGain, trendGain);
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(8 + 8 + 4 + 8 + 8);
  }
}
