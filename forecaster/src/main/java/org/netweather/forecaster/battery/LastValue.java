package org.netweather.forecaster.battery;

/**
 * Forecasts that the next measurement equals the last one.
 *
 * <p>NWS primary #1 (Wolski, Spring, Hayes 1999, "The Network Weather Service", FGCS 15(5);
 * docs/forecasting.md). It is also the yardstick: evaluation reports every error relative to it.
 * O(1) per measurement.
 */
final class LastValue implements Predictor {
  private double last = Double.NaN;

  @Override
  public void observe(double value) {
    last = value;
  }

  @Override
  public double update(double value) {
    observe(value); // this class is final: both calls inline here
    return predict();
  }

  @Override
  public double predict() {
    return last;
  }

  @Override
  public String name() {
    return "last-value";
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(8);
  }
}
