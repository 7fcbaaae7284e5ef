package org.netweather.forecaster.battery;

/**
 * Forecasts the mean of every measurement seen so far.
 *
 * <p>NWS primary #2 (Wolski, Spring, Hayes 1999; docs/forecasting.md). Kept as an incremental mean
 * (m += (x - m) / n) rather than a sum so that long series of large values do not lose precision.
 * O(1) per measurement.
 */
final class RunningMean implements Predictor {
  private double mean = Double.NaN;
  private long count;

  @Override
  public void observe(double value) {
    count++;
    mean = count == 1 ? value : mean + (value - mean) / count;
  }

  @Override
  public double update(double value) {
    observe(value); // this class is final: both calls inline here
    return predict();
  }

  @Override
  public double predict() {
    return mean;
  }

  @Override
  public String name() {
    return "running-mean";
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(16);
  }
}
