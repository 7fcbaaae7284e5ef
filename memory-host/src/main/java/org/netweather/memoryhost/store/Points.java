package org.netweather.memoryhost.store;

import java.util.Arrays;

/** Points of one series in timestamp order: parallel arrays of equal length. */
public record Points(long[] times, double[] values) {
  public static final Points EMPTY = new Points(new long[0], new double[0]);

  public int size() {
    return times.length;
  }

  /** The newest {@code n} points. */
  public Points last(int n) {
    if (n >= size()) {
      return this;
    }
    int from = size() - n;
    return new Points(
        Arrays.copyOfRange(times, from, size()), Arrays.copyOfRange(values, from, size()));
  }

  /** The oldest {@code n} points. */
  public Points first(int n) {
    if (n >= size()) {
      return this;
    }
    return new Points(Arrays.copyOf(times, n), Arrays.copyOf(values, n));
  }
}
