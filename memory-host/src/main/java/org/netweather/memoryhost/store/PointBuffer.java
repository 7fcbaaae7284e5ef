package org.netweather.memoryhost.store;

import java.util.Arrays;

/** A growable list of points, sorted on demand; duplicates of a timestamp keep the first. */
public final class PointBuffer {
  long[] times;
  double[] values;
  int size;

  public PointBuffer(int capacity) {
    times = new long[Math.max(4, capacity)];
    values = new double[times.length];
  }

  public void add(long time, double value) {
    if (size == times.length) {
      times = Arrays.copyOf(times, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    times[size] = time;
    values[size] = value;
    size++;
  }

  void addAll(GorillaDecoder d) {
    while (d.hasNext()) {
      d.next();
      add(d.time(), d.value());
    }
  }

  boolean isSortedStrictly() {
    for (int i = 1; i < size; i++) {
      if (times[i] <= times[i - 1]) {
        return false;
      }
    }
    return true;
  }

  /** Sorts by time (stable) and drops repeated timestamps. */
  void sort() {
    if (isSortedStrictly()) {
      return;
    }
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(times[a], times[b]));
    long[] t = new long[size];
    double[] v = new double[size];
    int n = 0;
    for (int i = 0; i < size; i++) {
      int k = order[i];
      if (n > 0 && t[n - 1] == times[k]) {
        continue;
      }
      t[n] = times[k];
      v[n] = values[k];
      n++;
    }
    times = t;
    values = v;
    size = n;
  }

  /** Points with from &lt;= t &lt;= to, in order; call {@link #sort()} first. */
  Points range(long from, long to) {
    int lo = lowerBound(from);
    int hi = lowerBound(to == Long.MAX_VALUE ? to : to + 1);
    if (to == Long.MAX_VALUE) {
      hi = size;
    }
    return new Points(Arrays.copyOfRange(times, lo, hi), Arrays.copyOfRange(values, lo, hi));
  }

  public int size() {
    return size;
  }

  /** Whether a point with this time was added (a linear scan: groups are small). */
  public boolean contains(long time) {
    for (int i = 0; i < size; i++) {
      if (times[i] == time) {
        return true;
      }
    }
    return false;
  }

  /** A sorted copy, leaving this buffer in arrival order. */
  public Points sortedCopy() {
    PointBuffer c = new PointBuffer(size);
    System.arraycopy(times, 0, c.times, 0, size);
    System.arraycopy(values, 0, c.values, 0, size);
    c.size = size;
    c.sort();
    return c.toPoints();
  }

  Points toPoints() {
    return new Points(Arrays.copyOf(times, size), Arrays.copyOf(values, size));
  }

  private int lowerBound(long t) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (times[mid] < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
