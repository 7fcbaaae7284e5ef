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
    for (int i = 0; i < count; i++) {
      double e = (float) Math.abs(actual - forecasts[i]);
      fresh[i] = e * e;
      fresh[count + i] = e;
    }
    for (int w = 0; w < windows.length; w++) {
      int base = w * width;
      if (steps >= windows[w]) {
        // The error leaving this window; for the longest window that is the row about to be
        // overwritten, which is why the ring is written last.
        int old = (int) ((steps - windows[w]) % span) * count;
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
    int row = (int) (steps % span) * count;
    for (int i = 0; i < count; i++) {
      ring[row + i] = (float) fresh[count + i];
    }
    if ((steps + 1) % REBUILD_EVERY == 0) {
      rebuild(steps + 1);
    }
  }

  /** Recomputes every window sum from the ring, newest row first, after {@code done} steps. */
  private void rebuild(long done) {
    int width = 2 * count;
    Arrays.fill(windowed, 0);
    double[] running = fresh; // scratch: record() refills it every step
    Arrays.fill(running, 0);
    int w = 0;
    long available = Math.min(done, span);
    for (int age = 0; age < available && w < windows.length; age++) {
      int row = (int) ((done - 1 - age) % span) * count;
      for (int i = 0; i < count; i++) {
        double e = ring[row + i];
        running[i] += e * e;
        running[count + i] += e;
      }
      while (w < windows.length && windows[w] == age + 1) {
        System.arraycopy(running, 0, windowed, w * width, width);
        w++;
      }
    }
    for (; w < windows.length; w++) { // windows longer than the history hold all of it
      System.arraycopy(running, 0, windowed, w * width, width);
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
