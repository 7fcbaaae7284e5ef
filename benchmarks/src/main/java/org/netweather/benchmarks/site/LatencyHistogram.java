package org.netweather.benchmarks.site;

/**
 * Latencies in microseconds in log-linear buckets (64 per power of two, so a percentile is off by
 * under 1.6 %), with the exact maximum. Not thread-safe: callers hold their own lock.
 */
final class LatencyHistogram {
  private static final int SUB = 64;
  private static final int SUB_BITS = 6;

  private final long[] counts = new long[SUB * 60];
  private long total;
  private long max;

  void record(long micros) {
    long v = Math.max(0, micros);
    counts[index(v)]++;
    total++;
    max = Math.max(max, v);
  }

  long count() {
    return total;
  }

  long maxMicros() {
    return max;
  }

  /** The value below which {@code p} percent of the recorded values lie; 0 if none. */
  long percentileMicros(double p) {
    if (total == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(total * p / 100.0));
    long seen = 0;
    for (int i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return Math.min(max, upperBound(i));
      }
    }
    return max;
  }

  private static int index(long v) {
    if (v < SUB) {
      return (int) v;
    }
    int shift = 63 - Long.numberOfLeadingZeros(v) - SUB_BITS;
    return SUB + shift * SUB + (int) (v >>> shift) - SUB;
  }

  private static long upperBound(int i) {
    if (i < SUB) {
      return i;
    }
    int shift = (i - SUB) / SUB;
    long sub = SUB + (i - SUB) % SUB;
    return ((sub + 1) << shift) - 1;
  }
}
