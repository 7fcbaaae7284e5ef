package org.netweather.forecaster.battery;

/**
 * The half-width of a served forecast's interval, set so that the interval holds its coverage on
 * the series itself rather than under a normal model: the (1 - α_t) empirical quantile of the last
 * {@value #WINDOW} absolute errors of that forecast, with α_t adjusted after every step by adaptive
 * conformal inference (I. Gibbs and E. Candès, "Adaptive Conformal Inference Under Distribution
 * Shift", NeurIPS 2021): α_{t+1} = α_t + γ (α − miss_t), so a run of misses widens the interval and
 * a run of hits narrows it, whatever the errors' distribution and however it drifts.
 *
 * <p>Unknown (NaN) until {@value #MIN_ERRORS} errors are in; the battery then falls back to the
 * normal interval. One instance per criterion per series; not thread-safe, like the battery.
 */
final class ConformalInterval {
  static final int WINDOW = 200;
  static final int MIN_ERRORS = 20;

  /** Step of the α_t update: about 1/γ = 200 steps to react to a change of noise. */
  static final double GAMMA = 0.005;

  /** Scratch for the quantile, shared by the batteries a thread updates. */
  private static final ThreadLocal<float[]> SCRATCH =
      ThreadLocal.withInitial(() -> new float[WINDOW]);

  private final double alpha;
  private final float[] errors = new float[WINDOW];
  private int count;
  private int head;
  private double alphaT;
  private double halfWidth = Double.NaN;

  /** An interval meant to cover the next measurement with probability {@code coverage}. */
  ConformalInterval(double coverage) {
    this.alpha = 1 - coverage;
    this.alphaT = alpha;
  }

  /** The half-width for the standing forecast; NaN while too few errors are known. */
  double halfWidth() {
    return halfWidth;
  }

  /** Takes the absolute error of the forecast that was standing when a measurement arrived. */
  void score(double error) {
    if (!Double.isNaN(halfWidth)) {
      double miss = error > halfWidth ? 1 : 0;
      alphaT = Math.max(-0.5, Math.min(1.5, alphaT + GAMMA * (alpha - miss)));
    }
    errors[head] = (float) Math.min(error, Float.MAX_VALUE);
    head = head + 1 == WINDOW ? 0 : head + 1;
    if (count < WINDOW) {
      count++;
    }
    halfWidth = count < MIN_ERRORS ? Double.NaN : quantile();
  }

  /** The (1 - α_t) quantile of the window (the largest error when α_t <= 0, zero when >= 1). */
  private double quantile() {
    float[] s = SCRATCH.get();
    System.arraycopy(errors, 0, s, 0, count);
    if (alphaT >= 1) {
      return 0;
    }
    int k = alphaT <= 0 ? count - 1 : (int) Math.ceil((1 - alphaT) * (count + 1)) - 1;
    k = Math.max(0, Math.min(count - 1, k));
    return select(s, count, k);
  }

  /** The k-th smallest of a[0..n), by quickselect (a is reordered). */
  static float select(float[] a, int n, int k) {
    int lo = 0;
    int hi = n - 1;
    while (lo < hi) {
      float pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        if (i <= j) {
          float t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      if (k <= j) {
        hi = j;
      } else if (k >= i) {
        lo = i;
      } else {
        return a[k];
      }
    }
    return a[k];
  }
}
