package org.netweather.forecaster.battery;

/**
 * Forecasts the mean of the last {@code window} measurements (of all, while fewer).
 *
 * <p>This is what the original NWS registers as "Sliding Median Window 31" and "... 5": its
 * alpha-trimmed median code with alpha 0 trims nothing, so it computes a plain sliding mean despite
 * the name (docs/forecasting.md). We keep the behaviour and give it the honest name.
 *
 * <p>O(1) per measurement: a running sum over a ring. The sum is recomputed from the ring once per
 * lap (O(1) amortized) so that rounding drift from adding and removing large values cannot build
 * up.
 */
final class SlidingMean implements Predictor {
  private final double[] ring;
  private final String name;
  private double sum;
  private int size;
  private int next;

  SlidingMean(int window) {
    if (window < 1) {
      throw new IllegalArgumentException("window must be positive: " + window);
    }
    this.ring = new double[window];
    this.name = "sliding-mean-" + window;
  }

  @Override
  public void observe(double value) {
    if (size == ring.length) {
      sum -= ring[next];
    } else {
      size++;
    }
    ring[next] = value;
    sum += value;
    next++;
    if (next == ring.length) {
      next = 0;
      double exact = 0;
      for (double v : ring) {
        exact += v;
      }
      sum = exact;
    }
  }

  @Override
  public double update(double value) {
    observe(value); // this class is final: both calls inline here
    return predict();
  }

  @Override
  public double predict() {
    return size == 0 ? Double.NaN : sum / size;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(4 + 4 + 8 + 4 + 4) + StateBytes.doubles(ring.length);
  }
}
