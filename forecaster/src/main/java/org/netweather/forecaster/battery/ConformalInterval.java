package org.netweather.forecaster.battery;

/**
 * The half-width of a served forecast's interval at any requested coverage in [0.50, 0.99], set so
 * that the interval holds its coverage on the series itself rather than under a normal model.
 *
 * <p>The half-width at coverage q is an empirical quantile of the last {@value #WINDOW} absolute
 * errors of that forecast (split conformal prediction on a sliding window; V. Vovk, A. Gammerman,
 * G. Shafer, "Algorithmic Learning in a Random World", Springer 2005), taken at an adjusted level 1
 * - α_t rather than q: adaptive conformal inference (I. Gibbs and E. Candès, "Adaptive Conformal
 * Inference Under Distribution Shift", NeurIPS 2021) moves α_t after every step, α_{t+1} = α_t + γ
 * (α - miss_t), so a run of misses widens the interval and a run of hits narrows it, whatever the
 * errors' distribution and however it drifts.
 *
 * <p>Any coverage may be asked for, but α_t can only be learnt for coverages whose misses are
 * counted every step. So α_t is kept for a few anchor coverages ({@link #ANCHORS}), and a request
 * between two anchors takes the adjusted level interpolated linearly between theirs: at an anchor
 * the guarantee is ACI's; between anchors the correction is of the same size and sign. State: the
 * error ring, a sorted copy of it (so any quantile is one array read, and a request costs nothing),
 * and one α_t per anchor. Per step: one O(log n) search and one shift of the sorted copy.
 *
 * <p>Unknown (NaN) until {@value #MIN_ERRORS} errors are in; the battery then falls back to the
 * normal interval. One instance per criterion per series; not thread-safe, like the battery.
 */
final class ConformalInterval {
  static final int WINDOW = 200;
  static final int MIN_ERRORS = 20;

  /** Step of the α_t update: about 1/γ = 200 steps to react to a change of noise. */
  static final double GAMMA = 0.005;

  /** Coverages whose α_t is learnt; requests in between interpolate (ascending). */
  static final double[] ANCHORS = {0.50, 0.60, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 0.975, 0.99};

  /** The range of coverage that can be requested. */
  static final double MIN_COVERAGE = 0.50;

  static final double MAX_COVERAGE = 0.99;

  private final float[] errors = new float[WINDOW]; // ring, oldest at head once full
  private final float[] sorted = new float[WINDOW]; // the same errors, ascending
  private final double[] alphas = new double[ANCHORS.length]; // α_t per anchor
  private int count;
  private int head;

  ConformalInterval() {
    for (int a = 0; a < ANCHORS.length; a++) {
      alphas[a] = 1 - ANCHORS[a];
    }
  }

  /**
   * The half-width for the standing forecast at {@code coverage} (in [0.50, 0.99]); NaN while too
   * few errors are known.
   */
  double halfWidth(double coverage) {
    if (count < MIN_ERRORS) {
      return Double.NaN;
    }
    return quantile(1 - adjustedAlpha(coverage));
  }

  /** α_t for {@code coverage}: an anchor's own, or interpolated between the two around it. */
  double adjustedAlpha(double coverage) {
    if (!(coverage >= MIN_COVERAGE && coverage <= MAX_COVERAGE)) {
      throw new IllegalArgumentException("coverage must be in [0.50, 0.99]: " + coverage);
    }
    int a = 1;
    while (a < ANCHORS.length - 1 && ANCHORS[a] < coverage) {
      a++;
    }
    double lo = ANCHORS[a - 1];
    double hi = ANCHORS[a];
    double t = Math.max(0, Math.min(1, (coverage - lo) / (hi - lo)));
    double shift = (1 - t) * (alphas[a - 1] - (1 - lo)) + t * (alphas[a] - (1 - hi));
    return (1 - coverage) + shift;
  }

  /** Takes the absolute error of the forecast that was standing when a measurement arrived. */
  void score(double error) {
    if (count >= MIN_ERRORS) {
      for (int a = 0; a < ANCHORS.length; a++) {
        double miss = error > quantile(1 - alphas[a]) ? 1 : 0;
        double alpha = 1 - ANCHORS[a];
        alphas[a] = Math.max(-0.5, Math.min(1.5, alphas[a] + GAMMA * (alpha - miss)));
      }
    }
    float e = (float) Math.min(error, Float.MAX_VALUE);
    if (count < WINDOW) {
      insert(e, count);
      errors[count++] = e;
      return;
    }
    replace(errors[head], e);
    errors[head] = e;
    head = head + 1 == WINDOW ? 0 : head + 1;
  }

  /**
   * The error at level p of the window: the ⌈p (n + 1)⌉-th smallest (the split-conformal rank), the
   * largest when p >= 1, zero when p <= 0.
   */
  private double quantile(double p) {
    if (p <= 0) {
      return 0;
    }
    int k = p >= 1 ? count - 1 : (int) Math.ceil(p * (count + 1)) - 1;
    return sorted[Math.max(0, Math.min(count - 1, k))];
  }

  /** Inserts e into sorted[0..n). */
  private void insert(float e, int n) {
    int at = position(e, n);
    System.arraycopy(sorted, at, sorted, at + 1, n - at);
    sorted[at] = e;
  }

  /** Replaces one copy of {@code old} in the full sorted window by {@code e}, keeping it sorted. */
  private void replace(float old, float e) {
    float[] s = sorted;
    int from = position(old, WINDOW); // first index with s[i] >= old: old itself
    int to = position(e, WINDOW);
    if (to > from) {
      to--; // the slot `old` leaves shifts everything after it down by one
      System.arraycopy(s, from + 1, s, from, to - from);
    } else {
      System.arraycopy(s, to, s, to + 1, from - to);
    }
    s[to] = e;
  }

  /** The first index in sorted[0..n) whose value is >= e. */
  private int position(float e, int n) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < e) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  long stateBytes() {
    return StateBytes.object(4 * 3 + 4 + 4)
        + 2 * StateBytes.floats(WINDOW)
        + StateBytes.doubles(ANCHORS.length);
  }
}
