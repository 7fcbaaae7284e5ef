package org.netweather.forecaster.battery;

/**
 * Exponentially weighted mean and autocovariances of a series up to some lag, and its last few
 * values: the sufficient statistics of a Yule-Walker AR fit, shared by every AR member of a
 * battery.
 *
 * <p>With forgetting factor lambda, after each measurement x (Box, Jenkins, Reinsel, "Time Series
 * Analysis", 4th ed., §3.2 for the Yule-Walker equations; exponential weighting as in Haykin,
 * "Adaptive Filter Theory", 4th ed., §9):
 *
 * <pre>
 *   mean += g (x - mean),  g = max(1 - lambda, 1 / n)       (a plain mean while n is small)
 *   c[j]  = lambda c[j] + (x - mean) (x[t-j] - mean),  j = 0..maxLag, once maxLag lags exist
 * </pre>
 *
 * <p>Centring each product on the current mean, rather than keeping raw moments and subtracting
 * mean^2 later, keeps the sums accurate when the level is far from zero or shifts. The scale of c
 * is arbitrary (Yule-Walker needs only the ratios c[j] / c[0]).
 *
 * <p>Cost O(maxLag) per measurement, no allocation. Several members share one instance (see {@link
 * WindowPool}); {@link #offer} makes the first of them to see a measurement add it.
 */
final class Autocovariances {
  private final double forgetting;
  private final double meanGain;
  private int maxLag;
  // The last maxLag + 1 values twice over, newest first from head: history[head + j] = x[t-j]
  // for every j <= maxLag (valid for j < n), so the lags are one contiguous run without copying
  // the window on every measurement.
  private double[] history;
  private int head;
  private double[] covariances;
  private double mean;
  private boolean plainMean = true; // while 1/n exceeds the forgetting gain
  private long added;

  Autocovariances(double forgetting, int maxLag) {
    if (!(forgetting > 0.9 && forgetting < 1)) {
      throw new IllegalArgumentException("forgetting factor must be in (0.9, 1): " + forgetting);
    }
    this.forgetting = forgetting;
    this.meanGain = 1 - forgetting;
    this.history = new double[0];
    this.covariances = new double[0];
    ensureLag(maxLag);
  }

  /** Makes this estimator track lags up to {@code lag}; only before the first measurement. */
  void ensureLag(int lag) {
    if (lag < 1) {
      throw new IllegalArgumentException("lag must be positive: " + lag);
    }
    if (added > 0) {
      throw new IllegalStateException("cannot widen an estimator that has seen data");
    }
    if (lag > maxLag) {
      maxLag = lag;
      history = new double[2 * (lag + 1)];
      head = 0;
      covariances = new double[lag + 1];
    }
  }

  double forgetting() {
    return forgetting;
  }

  int maxLag() {
    return maxLag;
  }

  /** Measurements added so far. */
  long added() {
    return added;
  }

  /** Whether the covariances hold products of real lags (every lag has been seen). */
  boolean ready() {
    return added > maxLag;
  }

  /**
   * Adds {@code value} as measurement number {@code sequence} (0-based) unless another sharer has
   * already added it.
   */
  void offer(long sequence, double value) {
    if (sequence == added) {
      add(value);
    }
  }

  void add(double value) {
    added++;
    double gain = meanGain;
    if (plainMean) {
      double plain = 1.0 / added;
      plainMean = plain > gain;
      gain = plainMean ? plain : gain;
    }
    mean += (value - mean) * gain;
    int span = maxLag + 1;
    int h = head == 0 ? span - 1 : head - 1;
    double[] x = history;
    x[h] = value;
    x[h + span] = value;
    head = h;
    if (added > maxLag) {
      double[] c = covariances;
      double lambda = forgetting;
      double m = mean;
      double d = value - m;
      for (int j = 0; j <= maxLag; j++) {
        c[j] = lambda * c[j] + d * (x[h + j] - m);
      }
    }
  }

  double mean() {
    return mean;
  }

  /** The value that arrived {@code age} measurements ago (0 = newest); age <= maxLag. */
  double recent(int age) {
    return history[head + age];
  }

  /**
   * The array holding the recent values: {@code recent(j) == history()[historyStart() + j]} until
   * the next measurement. For loops over the lags that should not call per element.
   */
  double[] history() {
    return history;
  }

  int historyStart() {
    return head;
  }

  /** Weighted autocovariance at {@code lag}, up to a common scale. */
  double covariance(int lag) {
    return covariances[lag];
  }

  long stateBytes() {
    return StateBytes.object(8 + 8 + 4 + 4 + 4 + 4 + 8 + 1 + 8)
        + StateBytes.doubles(2 * (maxLag + 1))
        + StateBytes.doubles(maxLag + 1);
  }
}
