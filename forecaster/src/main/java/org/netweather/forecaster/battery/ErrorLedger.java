package org.netweather.forecaster.battery;

/**
 * Running forecast errors of a fixed set of forecasters: squared and absolute, summed over the
 * whole history and over the last w steps for a few window lengths w.
 *
 * <p>The original NWS keeps, per predictor, a ring of cumulative-error snapshots and takes
 * window error as C[t] - C[t-w] (forc.c; forecasting.md §0). We keep the ring of per-step
 * errors instead and update each window sum by adding the newest error and subtracting the one
 * leaving: the same numbers, but the ring can hold {@code float}s (the sums stay {@code double}),
 * which halves the largest part of a series' state. Every sum adds and later subtracts exactly
 * the same float, so only double rounding can drift; the sums are rebuilt from the ring every
 * {@value #REBUILD_EVERY} steps to stop even that.
 *
 * <p>Layout is flat and row-major so one step touches a handful of contiguous rows:
 * {@code ring[row][metric][forecaster]}, {@code windowed[window][metric][forecaster]}. Cost per
 * step: O(forecasters x windows) additions, no allocation.
 */
final class ErrorLedger {
  static final int SQUARED = 0;
  static final int ABSOLUTE = 1;
  private static final int REBUILD_EVERY = 512;

  private final int count;
  private final int[] windows;
  private final int span; // ring rows = longest window
  private final double[] totals; // [metric][forecaster]
  private final double[] windowed; // [window][metric][forecaster]
  private final float[] ring; // [row][metric][forecaster]
  private final double[] fresh; // this step's errors, rounded to float
  private long steps;

  /** Tracks {@code count} forecasters over the given ascending window lengths (may be empty). */
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
    this.ring = new float[span * 2 * count];
    this.fresh = new double[2 * count];
  }

  int count() {
    return count;
  }

  long steps() {
    return steps;
  }

  /** Scores {@code forecasts[0..count)} against the measurement that has just arrived. */
  void record(double[] forecasts, double actual) {
    int width = 2 * count;
    for (int i = 0; i < count; i++) {
      double error = Math.abs(actual - forecasts[i]);
      totals[i] += error * error;
      totals[count + i] += error;
      fresh[i] = Math.min((float) (error * error), Float.MAX_VALUE);
      fresh[count + i] = (float) error;
    }
    if (span == 0) {
      steps++;
      return;
    }
    for (int w = 0; w < windows.length; w++) {
      int base = w * width;
      if (steps >= windows[w]) {
        int old = (int) ((steps - windows[w]) % span) * width;
        for (int k = 0; k < width; k++) {
          windowed[base + k] += fresh[k] - ring[old + k];
        }
      } else {
        for (int k = 0; k < width; k++) {
          windowed[base + k] += fresh[k];
        }
      }
    }
    int row = (int) (steps % span) * width;
    for (int k = 0; k < width; k++) {
      ring[row + k] = (float) fresh[k];
    }
    steps++;
    if (steps % REBUILD_EVERY == 0) {
      rebuild();
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
   * The forecaster in [from, to) with the lowest total error since {@code baseline} (a copy of
   * the totals taken earlier with {@link #copyTotals}, or null for the whole history); ties go
   * to the lower index.
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
    return StateBytes.object(4 * 6 + 4 + 8)
        + StateBytes.ints(windows.length)
        + 3 * StateBytes.doubles(2 * count)
        + StateBytes.doubles(windowed.length)
        + StateBytes.floats(ring.length);
  }

  /** Recomputes every window sum from the ring, newest row first. */
  private void rebuild() {
    int width = 2 * count;
    java.util.Arrays.fill(windowed, 0);
    long available = Math.min(steps, span);
    int w = 0;
    double[] running = fresh; // reuse as scratch; record() refills it every step
    java.util.Arrays.fill(running, 0);
    for (int age = 0; age < available && w < windows.length; age++) {
      int row = (int) ((steps - 1 - age) % span) * width;
      for (int k = 0; k < width; k++) {
        running[k] += ring[row + k];
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
}
