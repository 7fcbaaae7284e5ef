package org.netweather.forecaster.battery;

/**
 * Forecasts the median of the last {@code w} measurements, where {@code w} moves by {@code step}
 * within [min, max] toward whichever of w - step, w, w + step would have predicted the latest
 * measurement best.
 *
 * <p>NWS primaries #17-#18, "Adaptive Median Window 5-21" (start 10, step 1) and "21-51" (start 30,
 * step 5) (docs/forecasting.md). After each measurement, once the history holds {@code max} values,
 * the squared errors of the three candidate windows on that measurement are compared and {@code w}
 * moves to the best; ties keep {@code w}, then prefer the smaller window.
 *
 * <p><b>The quirk, decided.</b> The original {@code UpdateAdMedian} passes the offsets themselves
 * (1 or 5) as the "smaller" and "larger" candidate windows instead of {@code w - step} and {@code w
 * + step}, and does not clamp {@code w}. That reads as a bug: the {@code #ifdef NOTYET
 * AdjustedMedian} code beside it shows the intended rule. We implement the intended rule
 * (candidates {@code w +/- step}, clamped to [min, max]), as did the independent reference
 * implementation we checked the battery against.
 *
 * <p>Cost: the three candidate medians for the next step are found in one walk of a shared {@link
 * SortedWindow} of capacity at least {@code max}: O(capacity) per measurement.
 */
final class AdaptiveMedian implements Predictor {
  private final SortedWindow values;
  private final boolean ownsWindow;
  private final int min;
  private final int max;
  private final int step;
  private final String name;
  private final double[] candidates = new double[3]; // medians of w - step, w, w + step
  private int window;
  private long seen;

  AdaptiveMedian(SortedWindow values, boolean ownsWindow, int min, int max, int start, int step) {
    if (min < 1 || max < min || start < min || start > max || step < 1) {
      throw new IllegalArgumentException(
          "need 1 <= min <= start <= max and step >= 1: " + min + "," + start + "," + max);
    }
    if (max > values.capacity()) {
      throw new IllegalArgumentException("window capacity " + values.capacity() + " < " + max);
    }
    this.values = values;
    this.ownsWindow = ownsWindow;
    this.min = min;
    this.max = max;
    this.step = step;
    this.window = start;
    this.name = "adaptive-median-" + min + "-" + max;
    candidates[0] = candidates[1] = candidates[2] = Double.NaN;
  }

  @Override
  public void observe(double value) {
    if (seen >= max) {
      double smaller = square(value - candidates[0]);
      double same = square(value - candidates[1]);
      double larger = square(value - candidates[2]);
      // Which candidate wins is a coin toss on noisy data: choose with conditional moves.
      int down = (smaller < same ? 1 : 0) & (smaller <= larger ? 1 : 0);
      int up = (larger < same ? 1 : 0) & (larger < smaller ? 1 : 0);
      int moved = down != 0 ? smaller() : larger();
      window = (down | up) != 0 ? moved : window;
    }
    values.offer(seen++, value);
    values.mediansOfLast(smaller(), window, larger(), candidates);
  }

  @Override
  public double update(double value) {
    observe(value); // this class is final: both calls inline here
    return predict();
  }

  @Override
  public double predict() {
    return candidates[1];
  }

  /** The current window, for tests. */
  int window() {
    return window;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(4 + 1 + 4 * 3 + 4 + 4 + 4 + 8)
        + StateBytes.doubles(3)
        + (ownsWindow ? values.stateBytes() : 0);
  }

  private int smaller() {
    return Math.max(min, window - step);
  }

  private int larger() {
    return Math.min(max, window + step);
  }

  private static double square(double x) {
    return x * x;
  }
}
