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
 * which is exact (a 24-bit mantissa squared fits in 53 bits). Each window sum therefore adds and
 * later subtracts exactly the same values; only double rounding can drift, and the sums are
 * rebuilt from the ring every {@value #REBUILD_EVERY} steps to stop even that. Whole-history
 * sums use the unrounded errors.
 *
 * <p>Layout is flat and row-major so one step touches a few contiguous rows: {@code
 * ring[row][forecaster]}, {@code squares[window][forecaster]}, {@code absolutes[window]
 * [forecaster]}. Cost per step: O(forecasters x windows) additions, plus the rebuild amortized
 * to O(forecasters); no allocation.
 *
 * <p>Leaders. Selection needs, every step, the forecaster with the lowest sum for every metric
 * and window, over two ranges of forecasters: [0, split) (the faithful members) and [split,
 * count) (the extended ones), and over all of them counting from a baseline. Rather than have
 * each of 2 x 16 selectors rescan the sums through the selector layers, the ledger finds the
 * leaders itself right after updating each window's sums, while they are in L1: the same
 * scans ({@link #argminWindow}, {@link #argminTotal}; strictly lower wins, ties go to the
 * lower index), so the same leaders. The update and the scan are separate loops on purpose:
 * folding the compare-and-branch into the update loop was measured slower (it keeps the update
 * from running wide and makes each mispredicted branch wait on the add).
 */
final class ErrorLedger {
  static final int SQUARED = 0;
  static final int ABSOLUTE = 1;
  private static final int REBUILD_EVERY = 1024;

  private final int count;
  private final int split; // leaders are tracked over [0, split) and [split, count)
  private final int[] windows;
  private final int span; // ring rows = longest window
  private final double[] totals; // [metric][forecaster]
  private final double[] squares; // [window][forecaster]
  private final double[] absolutes; // [window][forecaster]
  private final float[] ring; // [row][forecaster], absolute errors
  private final double[] freshSquares; // this step's errors as stored in the ring
  private final double[] freshAbsolutes;
  private final int[] leaders; // [window + 1][metric][range]; window -1 is the whole history
  private final int[] leadersSinceBaseline = new int[2]; // [metric], over [0, count)
  private double[] baseline; // totals when markBaseline() was called
  private boolean baselineMarked;
  private int head; // ring row of the next step
  private long steps;

  /** Tracks {@code count} forecasters over the given ascending window lengths (may be none). */
  ErrorLedger(int count, int[] windows) {
    this(count, windows, count);
  }

  /**
   * Like {@link #ErrorLedger(int, int[])}, tracking leaders over [0, split) and [split, count)
   * separately.
   */
  ErrorLedger(int count, int[] windows, int split) {
    if (split < 0 || split > count) {
      throw new IllegalArgumentException("split must be in [0, count]: " + split);
    }
    for (int i = 0; i < windows.length; i++) {
      if (windows[i] < 1 || (i > 0 && windows[i] <= windows[i - 1])) {
        throw new IllegalArgumentException("windows must be positive and ascending");
      }
    }
    this.count = count;
    this.split = split;
    this.windows = windows.clone();
    this.span = windows.length == 0 ? 0 : windows[windows.length - 1];
    this.totals = new double[2 * count];
    this.squares = new double[windows.length * count];
    this.absolutes = new double[windows.length * count];
    this.ring = new float[span * count];
    this.freshSquares = new double[span == 0 ? 0 : count];
    this.freshAbsolutes = new double[span == 0 ? 0 : count];
    this.leaders = new int[(windows.length + 1) * 4];
    // Sized now when there are two ranges (the battery marks it once), so state is constant.
    this.baseline = split < count ? new double[totals.length] : null;
    for (int k = 0; k < leaders.length; k++) {
      leaders[k] = (k & 1) == 0 ? 0 : split; // what a scan of all-zero sums would find
    }
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
    recordTotals(forecasts, actual, 0, 0, split);
    recordTotals(forecasts, actual, 1, split, count);
    if (baselineMarked) {
      leadersSinceBaseline[SQUARED] = argminTotal(SQUARED, 0, count, baseline);
      leadersSinceBaseline[ABSOLUTE] = argminTotal(ABSOLUTE, 0, count, baseline);
    }
    if (span > 0) {
      recordWindows(forecasts, actual);
    }
    steps++;
  }

  private void recordTotals(double[] forecasts, double actual, int range, int from, int to) {
    double[] t = totals;
    int n = count;
    int bestSquared = from;
    int bestAbsolute = from;
    double leastSquared = Double.POSITIVE_INFINITY;
    double leastAbsolute = Double.POSITIVE_INFINITY;
    for (int i = from; i < to; i++) {
      double error = Math.abs(actual - forecasts[i]);
      double squared = t[i] += error * error;
      double absolute = t[n + i] += error;
      if (squared < leastSquared) {
        leastSquared = squared;
        bestSquared = i;
      }
      if (absolute < leastAbsolute) {
        leastAbsolute = absolute;
        bestAbsolute = i;
      }
    }
    leaders[SQUARED * 2 + range] = bestSquared;
    leaders[ABSOLUTE * 2 + range] = bestAbsolute;
  }

  private void recordWindows(double[] forecasts, double actual) {
    int n = count;
    double[] fs = freshSquares;
    double[] fa = freshAbsolutes;
    for (int i = 0; i < n; i++) {
      double e = (float) Math.abs(actual - forecasts[i]);
      fs[i] = e * e;
      fa[i] = e;
    }
    float[] r = ring;
    double[] sq = squares;
    double[] ab = absolutes;
    for (int w = 0; w < windows.length; w++) {
      int base = w * n;
      int old = -1; // no error leaves a window that is not yet full
      if (steps >= windows[w]) {
        // The error leaving this window; for the longest window that is the row about to be
        // overwritten, which is why the ring is written last.
        int oldRow = head - windows[w];
        old = (oldRow < 0 ? oldRow + span : oldRow) * n;
      }
      int slot = (w + 1) * 4;
      slideWindow(base, old, slot, 0, split);
      slideWindow(base, old, slot + 1, split, n);
    }
    int row = head * n;
    for (int i = 0; i < n; i++) {
      r[row + i] = (float) fa[i];
    }
    head = head + 1 == span ? 0 : head + 1;
    if ((steps + 1) % REBUILD_EVERY == 0) {
      rebuild(steps + 1);
    }
  }

  /**
   * Adds this step's errors of forecasters [from, to) to window sums starting at {@code base},
   * subtracting those of ring row {@code old} if it is not negative, and records the range's
   * leaders at {@code leaders[slot]} (squared) and {@code leaders[slot + 2]} (absolute).
   */
  private void slideWindow(int base, int old, int slot, int from, int to) {
    float[] r = ring;
    double[] fs = freshSquares;
    double[] fa = freshAbsolutes;
    double[] sq = squares;
    double[] ab = absolutes;
    // Update first, then find the least: plain loops without compare-and-branch in them.
    if (old >= 0) {
      for (int i = from; i < to; i++) {
        double e = r[old + i];
        sq[base + i] += fs[i] - e * e;
        ab[base + i] += fa[i] - e;
      }
    } else {
      for (int i = from; i < to; i++) {
        sq[base + i] += fs[i];
        ab[base + i] += fa[i];
      }
    }
    leaders[slot] = argmin(sq, base, from, to);
    leaders[slot + 2] = argmin(ab, base, from, to);
  }

  int split() {
    return split;
  }

  /**
   * The forecaster with the lowest error of {@code metric} over window {@code w} (or the whole
   * history if w < 0) in range 0 ([0, split)) or 1 ([split, count)); the range's start if empty.
   * Equal to {@link #argminWindow} or {@link #argminTotal} (without baseline) over that range.
   */
  int leader(int metric, int w, int range) {
    return leaders[((w + 1) * 2 + metric) * 2 + range];
  }

  /**
   * From now on, also track the leader over all forecasters of errors counted from here (see
   * {@link #leaderSinceBaseline}).
   */
  void markBaseline() {
    if (baseline == null) {
      baseline = new double[totals.length];
    }
    copyTotals(baseline);
    baselineMarked = true;
    leadersSinceBaseline[SQUARED] = 0; // all differences are zero now
    leadersSinceBaseline[ABSOLUTE] = 0;
  }

  /**
   * The forecaster with the lowest error of {@code metric} since {@link #markBaseline}: equal to
   * {@link #argminTotal} over [0, count) with the totals copied then.
   */
  int leaderSinceBaseline(int metric) {
    return leadersSinceBaseline[metric];
  }

  /** Sum of the metric's errors of forecaster {@code i} over the whole history. */
  double total(int metric, int i) {
    return totals[metric * count + i];
  }

  /** Sum of the metric's errors of forecaster {@code i} over the last {@code windows[w]} steps. */
  double windowed(int metric, int w, int i) {
    return (metric == SQUARED ? squares : absolutes)[w * count + i];
  }

  /**
   * The forecaster in [from, to) with the lowest total error since {@code baseline} (totals
   * copied earlier with {@link #copyTotals}, or null for the whole history); ties go to the lower
   * index.
   */
  int argminTotal(int metric, int from, int to, double[] baseline) {
    int offset = metric * count;
    if (baseline == null) {
      return argmin(totals, offset, from, to);
    }
    int best = from;
    double bestSum = Double.POSITIVE_INFINITY;
    for (int i = from; i < to; i++) {
      double sum = totals[offset + i] - baseline[offset + i];
      if (sum < bestSum) {
        bestSum = sum;
        best = i;
      }
    }
    return best;
  }

  /** The forecaster in [from, to) with the lowest error over window {@code w}; ties go low. */
  int argminWindow(int metric, int w, int from, int to) {
    return argmin(metric == SQUARED ? squares : absolutes, w * count, from, to);
  }

  /** Error over window {@code w} (or the whole history if w < 0) of forecaster {@code i}. */
  double sum(int metric, int w, int i) {
    return w < 0 ? total(metric, i) : windowed(metric, w, i);
  }

  /** Copies the current totals into {@code into} (length {@code 2 * count}). */
  void copyTotals(double[] into) {
    System.arraycopy(totals, 0, into, 0, totals.length);
  }

  long stateBytes() {
    return StateBytes.object(4 * 12 + 4 + 4 + 4 + 8 + 1)
        + StateBytes.ints(windows.length)
        + StateBytes.ints(leaders.length)
        + StateBytes.ints(2)
        + (baseline == null ? 0 : StateBytes.doubles(totals.length))
        + StateBytes.doubles(totals.length)
        + 2 * StateBytes.doubles(freshSquares.length)
        + 2 * StateBytes.doubles(squares.length)
        + StateBytes.floats(ring.length);
  }

  private static int argmin(double[] sums, int offset, int from, int to) {
    int best = from;
    double bestSum = Double.POSITIVE_INFINITY;
    for (int i = from; i < to; i++) {
      double sum = sums[offset + i];
      if (sum < bestSum) {
        bestSum = sum;
        best = i;
      }
    }
    return best;
  }

  /** Recomputes every window sum from the ring, newest row first, after {@code done} steps. */
  private void rebuild(long done) {
    int n = count;
    Arrays.fill(squares, 0);
    Arrays.fill(absolutes, 0);
    double[] runSquares = freshSquares; // scratch: recordWindows() refills them every step
    double[] runAbsolutes = freshAbsolutes;
    Arrays.fill(runSquares, 0);
    Arrays.fill(runAbsolutes, 0);
    int w = 0;
    long available = Math.min(done, span);
    for (int age = 0; age < available && w < windows.length; age++) {
      int rowIndex = head - 1 - age;
      int row = (rowIndex < 0 ? rowIndex + span : rowIndex) * n;
      for (int i = 0; i < n; i++) {
        double e = ring[row + i];
        runSquares[i] += e * e;
        runAbsolutes[i] += e;
      }
      while (w < windows.length && windows[w] == age + 1) {
        System.arraycopy(runSquares, 0, squares, w * n, n);
        System.arraycopy(runAbsolutes, 0, absolutes, w * n, n);
        w++;
      }
    }
    for (; w < windows.length; w++) { // windows longer than the history hold all of it
      System.arraycopy(runSquares, 0, squares, w * n, n);
      System.arraycopy(runAbsolutes, 0, absolutes, w * n, n);
    }
    for (w = 0; w < windows.length; w++) {
      for (int metric = 0; metric < 2; metric++) {
        int slot = ((w + 1) * 2 + metric) * 2;
        leaders[slot] = argminWindow(metric, w, 0, split);
        leaders[slot + 1] = argminWindow(metric, w, split, n);
      }
    }
  }
}
