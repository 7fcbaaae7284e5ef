package org.netweather.forecaster.battery;

import java.util.Arrays;

/**
 * Running forecast errors of a fixed set of forecasters: squared and absolute, summed over the
 * whole history and over the last w steps for a few window lengths w.
 *
 * <p>The original NWS keeps, per predictor, a ring of cumulative-error snapshots and takes the
 * error over a window as C[t] - C[t-w] (forc.c; docs/forecasting.md). We keep a ring of per-step
 * absolute errors instead and update each window sum by adding the newest error and subtracting the
 * one leaving the window. Same numbers, smaller state: the ring holds one {@code float} per
 * forecaster and step, and the squared error is the square of that float computed in double, which
 * is exact (a 24-bit mantissa squared fits in 53 bits). Each window sum therefore adds and later
 * subtracts exactly the same values; only double rounding can drift, and the sums are rebuilt from
 * the ring every {@value #REBUILD_EVERY} steps to stop even that; a window of one step is set, not
 * slid, so it holds this step's errors exactly. Whole-history sums use the unrounded errors.
 *
 * <p>Layout is flat and row-major so one step touches a few contiguous rows: {@code
 * ring[row][forecaster]} with one row more than the longest window (the new row is written first,
 * and no window's leaving row is ever the one being written), {@code
 * sums[window][metric][forecaster]}. Cost per step: O(forecasters x windows) additions, plus the
 * rebuild amortized to O(forecasters); no allocation.
 *
 * <p>Leaders. Selection needs, every step, the forecaster with the lowest sum for every metric and
 * window, over two ranges of forecasters: [0, split) (the faithful members) and [split, count) (the
 * extended ones), and over all of them counting from a baseline. Rather than have each of 2 x 16
 * selectors rescan the sums, the ledger finds the leaders itself right after updating each window's
 * sums, while they are in L1: the same minimum as {@link #argminWindow} and {@link #argminTotal}
 * (strictly lower wins, ties go to the lower index), so the same leaders. Each sum is compared as
 * one long key: the bits of a double that is not negative order like the double, and its lowest
 * mantissa bits (5 for up to 32 forecasters) are replaced by the forecaster's index, so one integer
 * minimum finds both the least sum and who holds it, with a conditional move and no data-dependent
 * branch. Which member leads changes often and unpredictably (window 1: on 86% of steps of the NAB
 * traces), so branching scans spend their time on mispredictions; index-and-value chains kept apart
 * cost three times the instructions. Measured on the standard battery's 24 members: the ledger from
 * about 780 to 550 ns per step. Two consequences: sums within a relative 2^-47 of each other
 * (rounding noise) rank as ties, and a window sum left at -1e-17 by add-then-subtract rounding,
 * whose true value is zero, ranks as zero.
 */
final class ErrorLedger {
  static final int SQUARED = 0;
  static final int ABSOLUTE = 1;
  private static final int REBUILD_EVERY = 1024;

  private final int count;
  private final long indexMask; // low bits of a leader key that hold the forecaster's index
  private final int split; // leaders are tracked over [0, split) and [split, count)
  private final int[] windows;
  private final int rows; // ring rows = longest window + 1
  private final double[] totals; // [metric][forecaster]
  private final double[] sums; // [window][metric][forecaster]
  private final float[] ring; // [row][forecaster], absolute errors
  private final int[] leaders; // [window + 1][metric][range]; window -1 is the whole history
  private final int[] leadersSinceBaseline = new int[2]; // [metric], over [0, count)
  private double[] baseline; // totals when markBaseline() was called
  private boolean baselineMarked;
  private int head; // ring row of the newest step
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
    this.indexMask = count <= 1 ? 0 : -1L >>> Long.numberOfLeadingZeros(count - 1);
    this.split = split;
    this.windows = windows.clone();
    this.rows = windows.length == 0 ? 0 : windows[windows.length - 1] + 1;
    this.totals = new double[2 * count];
    this.sums = new double[windows.length * 2 * count];
    this.ring = new float[rows * count];
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

  /**
   * The largest error a step can add: its square (1e300) keeps every total finite, so a member
   * whose forecast is absurd, infinite or NaN (poisoned by an absurd measurement) just loses,
   * instead of turning every total into Infinity or NaN.
   */
  static final double MAX_ERROR = 1e150;

  /** {@code e} bounded by {@code cap}; NaN counts as the bound. */
  static double bounded(double e, double cap) {
    return e < cap ? e : cap;
  }

  /** {@code e} bounded by {@link #MAX_ERROR}; NaN counts as the bound. */
  static double bounded(double e) {
    return bounded(e, MAX_ERROR);
  }

  /** As {@link #record(double[], double, double)} with errors bounded by {@link #MAX_ERROR}. */
  void record(double[] forecasts, double actual) {
    record(forecasts, actual, MAX_ERROR);
  }

  /**
   * Scores {@code forecasts[0..count)} against the measurement that has just arrived, each error
   * counted as at most {@code cap} (see {@code Battery}: a bound relative to the series' scale).
   */
  void record(double[] forecasts, double actual, double cap) {
    int n = count;
    double[] t = totals;
    for (int i = 0; i < n; i++) {
      double error = bounded(Math.abs(actual - forecasts[i]), cap);
      t[i] += error * error;
      t[n + i] += error;
    }
    leaders2(t, 0, n, 0, split, 0);
    leaders2(t, 0, n, split, n, 1);
    if (baselineMarked) {
      trackSinceBaseline();
    }
    if (rows > 0) {
      recordWindows(forecasts, actual, cap);
    }
    steps++;
  }

  private void recordWindows(double[] forecasts, double actual, double cap) {
    int n = count;
    float[] r = ring;
    head = head + 1 == rows ? 0 : head + 1;
    int now = head * n;
    for (int i = 0; i < n; i++) {
      // A float holds up to 3.4e38: bounded lower so window sums stay finite too.
      r[now + i] = (float) Math.min(bounded(Math.abs(actual - forecasts[i]), cap), 1e30);
    }
    double[] s = sums;
    for (int w = 0; w < windows.length; w++) {
      int base = w * 2 * n;
      int length = windows[w];
      if (length == 1) {
        for (int i = 0; i < n; i++) {
          double e = r[now + i];
          s[base + i] = e * e;
          s[base + n + i] = e;
        }
      } else if (steps >= length) {
        int oldRow = head - length;
        int old = (oldRow < 0 ? oldRow + rows : oldRow) * n;
        for (int i = 0; i < n; i++) {
          double e = r[now + i];
          double o = r[old + i];
          s[base + i] += e * e - o * o;
          s[base + n + i] += e - o;
        }
      } else { // no error leaves a window that is not yet full
        for (int i = 0; i < n; i++) {
          double e = r[now + i];
          s[base + i] += e * e;
          s[base + n + i] += e;
        }
      }
      int slot = (w + 1) * 4;
      leaders2(s, base, n, 0, split, slot);
      leaders2(s, base, n, split, n, slot + 1);
    }
    if ((steps + 1) % REBUILD_EVERY == 0) {
      rebuild(steps + 1);
    }
  }

  /**
   * Finds the least of {@code a[base + i]} (squared) and of {@code a[base + n + i]} (absolute) over
   * i in [from, to), all not negative, in one pass, and records them at {@code leaders[slot]} and
   * {@code leaders[slot + 2]}; {@code from} if the range is empty.
   */
  private void leaders2(double[] a, int base, int n, int from, int to, int slot) {
    long indexBits = indexMask;
    long leastSquared = Long.MAX_VALUE;
    long leastAbsolute = Long.MAX_VALUE;
    for (int i = from; i < to; i++) {
      long sq = key(a[base + i], indexBits, i);
      long ab = key(a[base + n + i], indexBits, i);
      leastSquared = sq < leastSquared ? sq : leastSquared;
      leastAbsolute = ab < leastAbsolute ? ab : leastAbsolute;
    }
    leaders[slot] = from == to ? from : (int) (leastSquared & indexBits);
    leaders[slot + 2] = from == to ? from : (int) (leastAbsolute & indexBits);
  }

  /**
   * A sum and its forecaster as one long that orders like (sum, index): the bits of a double that
   * is not negative order like the double, and the lowest mantissa bits give way to the index. A
   * negative sum (rounding residue of a true zero) becomes +0.
   */
  private static long key(double sum, long indexBits, int i) {
    long bits = Double.doubleToRawLongBits(sum);
    return (bits & ~(bits >> 63) & ~indexBits) | i;
  }

  /**
   * The least of {@code a[offset + i]}, i in [0, length), ties to the lower index, by the same keys
   * as the leaders; {@code indexBits} must hold {@code length - 1}.
   */
  static int argmin(double[] a, int offset, int length, long indexBits) {
    long least = Long.MAX_VALUE;
    for (int i = 0; i < length; i++) {
      long k = key(a[offset + i], indexBits, i);
      least = k < least ? k : least;
    }
    return (int) (least & indexBits);
  }

  /** Leaders over all forecasters of the totals since the baseline. */
  private void trackSinceBaseline() {
    double[] t = totals;
    double[] b = baseline;
    int n = count;
    long indexBits = indexMask;
    long leastSquared = Long.MAX_VALUE;
    long leastAbsolute = Long.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      long sq = key(t[i] - b[i], indexBits, i);
      long ab = key(t[n + i] - b[n + i], indexBits, i);
      leastSquared = sq < leastSquared ? sq : leastSquared;
      leastAbsolute = ab < leastAbsolute ? ab : leastAbsolute;
    }
    leadersSinceBaseline[SQUARED] = (int) (leastSquared & indexBits);
    leadersSinceBaseline[ABSOLUTE] = (int) (leastAbsolute & indexBits);
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
   * From now on, also track the leader over all forecasters of errors counted from here (see {@link
   * #leaderSinceBaseline}).
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

  /** Sum of the metric's errors of forecaster {@code i} over the last {@code windows[w]} steps. */
  double windowed(int metric, int w, int i) {
    return sums[(w * 2 + metric) * count + i];
  }

  /**
   * The forecaster in [from, to) with the lowest total error since {@code baseline} (totals copied
   * earlier with {@link #copyTotals}, or null for the whole history); ties go to the lower index.
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

  /**
   * The forecaster in [from, to) with the lowest error over window {@code w}; ties go low, and a
   * sum below zero (rounding residue) counts as zero, as in the leader scans.
   */
  int argminWindow(int metric, int w, int from, int to) {
    int offset = (w * 2 + metric) * count;
    int best = from;
    double bestSum = Double.POSITIVE_INFINITY;
    for (int i = from; i < to; i++) {
      double sum = Math.max(0.0, sums[offset + i]);
      if (sum < bestSum) {
        bestSum = sum;
        best = i;
      }
    }
    return best;
  }

  /**
   * Forecaster {@code i}'s error over window {@code w} as the key the leaders are found by: of two
   * forecasters, the one with the lower key leads.
   */
  long rank(int metric, int w, int i) {
    return key(windowed(metric, w, i), indexMask, i);
  }

  /** Copies the current totals into {@code into} (length {@code 2 * count}). */
  void copyTotals(double[] into) {
    System.arraycopy(totals, 0, into, 0, totals.length);
  }

  long stateBytes() {
    return StateBytes.object(4 * 9 + 4 + 4 + 4 + 8 + 8 + 1)
        + StateBytes.ints(windows.length)
        + StateBytes.ints(leaders.length)
        + StateBytes.ints(2)
        + (baseline == null ? 0 : StateBytes.doubles(totals.length))
        + StateBytes.doubles(totals.length)
        + StateBytes.doubles(sums.length)
        + StateBytes.floats(ring.length);
  }

  /**
   * Recomputes every window sum from the ring after {@code done} steps: one pass from the newest
   * row back, accumulating in the slot of the shortest window not yet complete; each completed
   * window hands its sums on to the next as its starting point.
   */
  private void rebuild(long done) {
    int n = count;
    double[] s = sums;
    Arrays.fill(s, 0);
    long available = Math.min(done, rows - 1);
    int w = 0;
    for (int age = 0; age < available && w < windows.length; age++) {
      int rowIndex = head - age;
      int row = (rowIndex < 0 ? rowIndex + rows : rowIndex) * n;
      int base = w * 2 * n;
      for (int i = 0; i < n; i++) {
        double e = ring[row + i];
        s[base + i] += e * e;
        s[base + n + i] += e;
      }
      if (windows[w] == age + 1 && ++w < windows.length) {
        System.arraycopy(s, base, s, w * 2 * n, 2 * n);
      }
    }
    for (int v = w + 1; v < windows.length; v++) { // longer than the history: hold all of it
      System.arraycopy(s, w * 2 * n, s, v * 2 * n, 2 * n);
    }
    for (w = 0; w < windows.length; w++) {
      leaders2(s, w * 2 * n, n, 0, split, (w + 1) * 4);
      leaders2(s, w * 2 * n, n, split, n, (w + 1) * 4 + 1);
    }
  }
}
