package org.netweather.forecaster.battery;

import java.util.Locale;

/**
 * Forecasts p(t+1) = p(t) + g * (x(t) - p(t)), starting from the first measurement.
 *
 * <p>NWS primaries #3-#10 use gains 0.05, 0.10, 0.15, 0.20, 0.30, 0.40, 0.50 and 0.75 (Wolski,
 * Spring, Hayes 1999; docs/forecasting.md, "exp_smooth.c"). O(1) per measurement.
 */
final class ExponentialSmoothing implements Predictor {
  private final double gain;
  private double forecast = Double.NaN;

  ExponentialSmoothing(double gain) {
    if (!(gain > 0 && gain <= 1)) {
      throw new IllegalArgumentException("gain must be in (0, 1]: " + gain);
    }
    this.gain = gain;
  }

  @Override
  public void observe(double value) {
    forecast = Double.isNaN(forecast) ? value : forecast + gain * (value - forecast);
  }

  @Override
  public double update(double value) {
    observe(value); // this class is final: both calls inline here
    return predict();
  }

  @Override
  public double predict() {
    return forecast;
  }

  @Override
  public String name() {
    return String.format(Locale.ROOT, "exp-smooth-%.2f", gain);
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(8 + 4 + 8);
  }
}
