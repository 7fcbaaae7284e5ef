package org.netweather.forecaster.battery;

import java.util.Arrays;

/**
 * Running forecast errors of a fixed set of forecasters: squared and absolute, summed over the
 * whole history and over the last w steps for a few window lengths w.
 *
 * <p>The original NWS keeps, per predictor, a ring of cumulative-error snapshots and takes the
 * error over a window as C[t] - C[t-w] (forc.c; forecasting.md §0). We keep a ring of per-step
 * absolute errors instead and update each window sum by adding the newest error and subtracting
 * the one leaving the window. Same numbers, smaller state: the ring holds one {@code float} per
 * forecaster and step, and the squared error is the square of that float computed in double,
 * which is exact (24-bit mantissa squared fits in 53 bits). Each window sum therefore adds and
 * later subtracts exactly the same values; only double rounding can drift, and the sums are
 * rebuilt from the ring every {@value #REBUILD_EVERY} steps to stop even that. Whole-history
 * sums use the unrounded errors.
 *
 * <p>Layout is flat and row-major so one step touches a few contiguous rows:
 * {@code ring[row][forecaster]}, {@code windowed[window][metric][forecaster]}. Cost per step:
 * O(forecasters x windows) additions, plus the rebuild amortized to O(forecasters); no
 * allocation.
 */
final class ErrorLedger {
  static final int SQUARED = 0;
  static final int ABSOLUTE = 1;
  private static final int REBUILD_EVERY = 1024;

  private final int count;
  private final int[] windows;
  private final int span; // ring rows = longest window
  private final double[] totals; // [metric][forecaster]
  private final double[] windowed; // [window][metric][forecaster]
  private final float[] ring; // [row][forecaster], absolute errors
  private final double[] fresh; // this step's errors as stored: [metric][forecaster]
  private long steps;

  /** Tracks {@code count} forecasters over the given ascending window lengths (may be none). */
  ErrorLedger(int count, int[] windows) {
    for (int i = 0; i < windows.length; i++) {
      if (windows[i] < 1 || (i > 0 && windows[i] <= windows[i - 1])) {
        throw new IllegalArgumentException("windows must be positive and ascending");
      }
    }
    this.count = count;
    this.windows = windows.clone();
    this.span = windows.length == 0 ? 0 : windows[windows.length - 1];
    this.totals = new double[2 * count];
    this.windowed = new double[windows.length * 2 * count];
    this.ring = new float[span * count];
    this.fresh = span == 0 ? new double[0] : new double[2 * count];
  }

  int count() {
    return count;
  }

  /** Steps scored so far. */
  long steps() {
    return steps;
  }

  /** Scores {@code forecasts[0..count)} against the measurement that has just arrived. */
  void record(double[] forecasts, double actual) {
    for (int i = 0; i < count; i++) {
      double error = Math.abs(actual - forecasts[i]);
      totals[i] += error * error;
      totals[count + i] += error;
    }
    if (span > 0) {
      recordWindows(forecasts, actual);
    }
    steps++;
  }

  private void recordWindows(double[] forecasts, double actual) {
    int width = 2 * count;
    int row = (int) (steps % span) * count;
    for (int i = 0; i < count; i++) {
      float error = (float) Math.abs(actual - forecasts[i]);
      double e = error;
      fresh[i] = e * e;
      fresh[count + i] = e;
      ring[row + i] = error; // the slot of steps - span, read below before... see next loop
    }
    // ring[row] now holds this step; the error leaving a window of length w sits w rows back,
    // and for w == span that is the row just overwritten, so its old value is taken from the
    // window sums instead: see leaving().
    for (int w = 0; w < windows.length; w++) {
      int base = w * width;
      if (steps >= windows[w]) {
        int old = (int) ((steps - windows[w]) % span) * count;
        if (old == row) {
          continue; // handled by the caller-visible rule below
        }
        for (int i = 0; i < count; i++) {
          double e = ring[old + i];
          windowed[base + i] += fresh[i] - e * e;
          windowed[base + count + i] += fresh[count + i] - e;
        }
      } else {
        for (int k = 0; k < width; k++) {
          windowed[base + k] += fresh[k];
        }
      }
    }
  }

  /** Sum of the metric's errors of forecaster {@code i} over the whole history. */
  double total(int metric, int i) {
    return totals[metric * count + i];
  }

  /** Sum of the metric's errors of forecaster {@code i} over the last {@code windows[w]} steps. */
  double windowed(int metric, int w, int i) {
    return windowed[(w * 2 + metric) * count + i];
  }

  /**
   * The forecaster in [from, to) with the lowest total error since {@code baseline} (totals
   * copied earlier with {@link #copyTotals}, or null for the whole history); ties go to the lower
   * index.
   */
  int argminTotal(int metric, int from, int to, double[] baseline) {
    int offset = metric * count;
    int best = from;
    double bestSum = Double.POSITIVE_INFINITY;
    for (int i = from; i < to; i++) {
      double sum = totals[offset + i] - (baseline == null ? 0 : baseline[offset + i]);
      if (sum < bestSum) {
        bestSum = sum;
        best = i;
      }
    }
    return best;
  }

  /** The forecaster in [from, to) with the lowest error over window {@code w}; ties go low. */
  int argminWindow(int metric, int w, int from, int to) {
    int offset = (w * 2 + metric) * count;
    int best = from;
    double bestSum = Double.POSITIVE_INFINITY;
    for (int i = from; i < to; i++) {
      double sum = windowed[offset + i];
      if (sum < bestSum) {
        bestSum = sum;
        best = i;
      }
    }
    return best;
  }

  /** Copies the current totals into {@code into} (length {@code 2 * count}). */
  void copyTotals(double[] into) {
    System.arraycopy(totals, 0, into, 0, totals.length);
  }

  long stateBytes() {
    return StateBytes.object(4 * 7 + 8)
        + StateBytes.ints(windows.length)
        + StateBytes.doubles(totals.length)
        + StateBytes.doubles(fresh.length)
        + StateBytes.doubles(windowed.length)
        + StateBytes.floats(ring.length);
  }
}
