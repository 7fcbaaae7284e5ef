package org.netweather.forecaster.battery;

/**
 * Forecasts the median of the last {@code window} measurements (of all, while fewer); with an even
 * count, the mean of the two middle values.
 *
 * <p>NWS primaries #11-#12, "Median Window 31" and "Median Window 5" (Wolski, Spring, Hayes 1999;
 * docs/forecasting.md). Reads a {@link SortedWindow} of exactly {@code window} values, so the
 * median is the middle entry: O(log window) search plus an O(window) array shift per measurement,
 * shared with every other member on the same window.
 */
final class SlidingMedian implements Predictor {
  private final SortedWindow values;
  private final boolean ownsWindow;
  private final int window;
  private final String name;
  private long seen;
  private double forecast = Double.NaN;

  SlidingMedian(SortedWindow values, boolean ownsWindow, int window) {
    if (window < 1 || window > values.capacity()) {
      throw new IllegalArgumentException("window must be in [1, " + values.capacity() + "]");
    }
    this.values = values;
    this.ownsWindow = ownsWindow;
    this.window = window;
    this.name = "median-" + window;
  }

  @Override
  public void observe(double value) {
    values.offer(seen++, value);
    forecast = values.medianOfLast(window);
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
    return name;
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(4 + 1 + 4 + 4 + 8 + 8) + (ownsWindow ? values.stateBytes() : 0);
  }
}
