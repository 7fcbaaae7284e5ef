package org.netweather.forecaster.battery;

import java.util.Locale;

/**
 * Forecasts the mean of the last {@code window} measurements after dropping the {@code floor(trim *
 * n)} smallest and largest of them (n = values in the window).
 *
 * <p>NWS primaries #15-#16, "30% Trimmed Median Window 31" and "... 51": the original sorts the
 * window, drops that many from each end and averages the rest, i.e. a trimmed <em>mean</em> ("page
 * 264 in DSP book"; docs/forecasting.md). Reads a shared {@link SortedWindow}; the average of the
 * kept middle costs O(window) per measurement.
 */
final class TrimmedMean implements Predictor {
  private final SortedWindow values;
  private final boolean ownsWindow;
  private final int window;
  private final double trim;
  private final String name;
  private long seen;
  private double forecast = Double.NaN;

  TrimmedMean(SortedWindow values, boolean ownsWindow, int window, double trim) {
    if (window < 1 || window > values.capacity()) {
      throw new IllegalArgumentException("window must be in [1, " + values.capacity() + "]");
    }
    if (!(trim >= 0 && trim < 0.5)) {
      throw new IllegalArgumentException("trim must be in [0, 0.5): " + trim);
    }
    this.values = values;
    this.ownsWindow = ownsWindow;
    this.window = window;
    this.trim = trim;
    this.name =
        trim == 0.3
            ? "trimmed-mean-" + window
            : String.format(Locale.ROOT, "trimmed-mean-%d-%.2f", window, trim);
  }

  @Override
  public void observe(double value) {
    values.offer(seen++, value);
    forecast = values.trimmedMeanOfLast(window, trim);
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
    return StateBytes.object(4 + 1 + 4 + 8 + 4 + 8 + 8) + (ownsWindow ? values.stateBytes() : 0);
  }
}
