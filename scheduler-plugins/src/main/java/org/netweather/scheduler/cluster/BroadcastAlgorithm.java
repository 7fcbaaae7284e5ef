package org.netweather.scheduler.cluster;

/**
 * The four broadcast shapes of the paper's Table 3 and their predicted completion times.
 *
 * <pre>
 * Nasri, Steffenel, Trystram, CCGrid'07, Table 3 (pLogP terms; P processes, m bytes):
 *   Linear    L + (P−1)·g(m)
 *   Pipeline  (P−1)·(g(s) + L) + g(s)·(k−1)      m = k·s, k chosen by integer search
 *   Binary    ⌈log₂P⌉·(2·g(m) + L)                the paper's upper bound, used as equality
 *   Binomial  ⌈log₂P⌉·L + ⌊log₂P⌋·g(m)            the paper's form; the textbook one is
 *                                                 ⌈log₂P⌉·(L + g(m)); equal at powers of two
 * P = 1 costs 0 for every shape (Table 4's single machine, reported as "linear").
 * </pre>
 */
public enum BroadcastAlgorithm {
  LINEAR,
  PIPELINE,
  BINARY,
  BINOMIAL;

  /** The largest segment count tried; beyond it segments are a few bytes. */
  static final int MAX_SEGMENTS = 1 << 16;

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Predicted time to broadcast m bytes to p processes (root included). */
  public double cost(CommModel model, int p, double m) {
    return p <= 1 ? 0 : plan(model, p, m).time();
  }

  /** The predicted time and, for the pipeline, the segment count that achieves it. */
  public Plan plan(CommModel model, int p, double m) {
    if (p < 1) {
      throw new IllegalArgumentException("a broadcast needs at least one process");
    }
    if (p == 1) {
      return new Plan(this, 0, 1);
    }
    double l = model.latency();
    int up = 32 - Integer.numberOfLeadingZeros(p - 1); // ⌈log₂P⌉
    int down = 31 - Integer.numberOfLeadingZeros(p); // ⌊log₂P⌋
    return switch (this) {
      case LINEAR -> new Plan(this, l + (p - 1) * model.gap(m), 1);
      case BINARY -> new Plan(this, up * (2 * model.gap(m) + l), 1);
      case BINOMIAL -> new Plan(this, up * l + down * model.gap(m), 1);
      case PIPELINE -> pipeline(model, p, m);
    };
  }

  private static Plan pipeline(CommModel model, int p, double m) {
    double l = model.latency();
    int limit = (int) Math.max(1, Math.min(MAX_SEGMENTS, Math.floor(m)));
    double best = Double.POSITIVE_INFINITY;
    int bestK = 1;
    for (int k = 1; k <= limit; k++) {
      double gs = model.gap(m / k);
      double t = (p - 1) * (gs + l) + gs * (k - 1);
      if (t < best) {
        best = t;
        bestK = k;
      }
    }
    return new Plan(PIPELINE, best, bestK);
  }

  /** One algorithm's prediction; {@code segments} is 1 except for the pipeline. */
  public record Plan(BroadcastAlgorithm algorithm, double time, int segments) {}
}
