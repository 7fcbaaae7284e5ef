package org.netweather.forecaster.battery;

/**
 * The last {@code capacity} measurements of a series, kept both in arrival order and sorted, so
 * that medians and trimmed means of the last k values (any k up to the capacity) are cheap.
 *
 * <p>Each sorted entry carries its arrival number, which lets one window answer order-statistic
 * queries about any suffix of the history: the median of the last k values is found by walking the
 * sorted array and counting only entries younger than k. Equal values are kept in arrival order, so
 * the oldest entry (the one to evict) is always the first of its run of equals and is found by one
 * binary search.
 *
 * <p>Cost per {@link #add}: two binary searches, for the evicted entry and for the new value's
 * place (O(log capacity), each step a conditional move: where a noisy value lands is a coin toss
 * that a branch would mispredict), and one block move of the entries between the two places:
 * O(capacity) in the worst case, about a third of it on average. For the windows of the NWS battery
 * (capacity 5, 31 and 51) that is at most 51 moves within 1.2 KB, cheaper in practice than any
 * pointer-based order-statistics tree, but it is O(capacity), so do not use this class for windows
 * much beyond a hundred. Queries over the whole window are O(1) (median) or O(capacity) (trimmed
 * mean); queries over a shorter suffix walk the sorted array, O(capacity).
 *
 * <p>Several predictors may share one window (see {@link WindowPool}); {@link #offer} makes the
 * first of them to see a measurement add it and the others skip it.
 */
final class SortedWindow {
  private final int capacity;
  private final double[] ring; // arrival order; ring[head] is the oldest once full
  private final double[] sorted; // ascending; ties in arrival order
  private final int[] arrivals; // arrival number of sorted[i]; int arithmetic wraps harmlessly
  private int size;
  private int head; // next ring slot to write
  private long added; // measurements added so far

  SortedWindow(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
    this.ring = new double[capacity];
    this.sorted = new double[capacity];
    this.arrivals = new int[capacity];
  }

  int capacity() {
    return capacity;
  }

  /** Number of values held: min(added, capacity). */
  int size() {
    return size;
  }

  /** Measurements added so far. */
  long added() {
    return added;
  }

  /**
   * Adds {@code value} as measurement number {@code sequence} (0-based) unless another sharer has
   * already added it.
   */
  void offer(long sequence, double value) {
    if (sequence == added) {
      add(value);
    }
  }

  void add(double value) {
    int arrival = (int) added;
    // The new value goes after every held value not above it (equal values in arrival order).
    int after = upperBound(value);
    int at;
    if (size == capacity) {
      int evicted = lowerBound(ring[head]); // the oldest is the first of its equals
      if (evicted < after) { // close the gap upwards: entries in between move down one
        at = after - 1;
        System.arraycopy(sorted, evicted + 1, sorted, evicted, at - evicted);
        System.arraycopy(arrivals, evicted + 1, arrivals, evicted, at - evicted);
      } else { // entries from the new place up to the gap move up one
        at = after;
        System.arraycopy(sorted, at, sorted, at + 1, evicted - at);
        System.arraycopy(arrivals, at, arrivals, at + 1, evicted - at);
      }
    } else {
      at = after;
      System.arraycopy(sorted, at, sorted, at + 1, size - at);
      System.arraycopy(arrivals, at, arrivals, at + 1, size - at);
      size++;
    }
    sorted[at] = value;
    arrivals[at] = arrival;
    ring[head] = value;
    head = head + 1 == capacity ? 0 : head + 1;
    added++;
  }

  /** The value that arrived {@code age} measurements ago (0 = newest); age < size. */
  double recent(int age) {
    int slot = head - 1 - age;
    return ring[slot < 0 ? slot + capacity : slot];
  }

  /**
   * Median of the last {@code k} values (all held values if fewer); the mean of the two middle
   * values when that count is even. NaN when empty.
   */
  double medianOfLast(int k) {
    int n = Math.min(k, size);
    if (n == 0) {
      return Double.NaN;
    }
    if (n == size) {
      return (sorted[(n - 1) >> 1] + sorted[n >> 1]) * 0.5;
    }
    int newest = (int) (added - 1);
    int lowRank = (n - 1) >> 1; // 0-based ranks among the last n
    int highRank = n >> 1;
    int seen = 0;
    double low = Double.NaN;
    for (int i = 0; i < size; i++) {
      if (newest - arrivals[i] < n) {
        if (seen == lowRank) {
          low = sorted[i];
        }
        if (seen == highRank) {
          return (low + sorted[i]) * 0.5;
        }
        seen++;
      }
    }
    throw new AssertionError("window lost track of its entries");
  }

  /**
   * Writes to {@code out[0..2]} the medians of the last {@code k0 <= k1 <= k2} values in one walk
   * of the sorted array (the adaptive median needs three candidate windows every step).
   */
  void mediansOfLast(int k0, int k1, int k2, double[] out) {
    int n0 = Math.min(k0, size);
    int n1 = Math.min(k1, size);
    int n2 = Math.min(k2, size);
    if (n0 == 0) {
      out[0] = out[1] = out[2] = Double.NaN;
      return;
    }
    int newest = (int) (added - 1);
    // Keys (count << 1 | counted): entry i is the r-th (1-based) of the last n exactly when
    // its running count becomes r while it is counted itself. Comparing one int per target keeps
    // the loop free of unpredictable branches; only the rare hits branch.
    int lo0 = key((n0 + 1) >> 1);
    int hi0 = key((n0 >> 1) + 1);
    int lo1 = key((n1 + 1) >> 1);
    int hi1 = key((n1 >> 1) + 1);
    int lo2 = key((n2 + 1) >> 1);
    int hi2 = key((n2 >> 1) + 1);
    int c0 = 0;
    int c1 = 0;
    int c2 = 0;
    double l0 = 0;
    double l1 = 0;
    double l2 = 0;
    int pending = 3;
    for (int i = 0; i < size && pending > 0; i++) {
      int age = newest - arrivals[i];
      double v = sorted[i];
      int q0 = (age - n0) >>> 31; // 1 if this entry is among the last n0
      int q1 = (age - n1) >>> 31;
      int q2 = (age - n2) >>> 31;
      c0 += q0;
      c1 += q1;
      c2 += q2;
      int key0 = c0 << 1 | q0;
      int key1 = c1 << 1 | q1;
      int key2 = c2 << 1 | q2;
      if (key0 == lo0) {
        l0 = v;
      }
      if (key0 == hi0) {
        out[0] = (l0 + v) * 0.5;
        pending--;
      }
      if (key1 == lo1) {
        l1 = v;
      }
      if (key1 == hi1) {
        out[1] = (l1 + v) * 0.5;
        pending--;
      }
      if (key2 == lo2) {
        l2 = v;
      }
      if (key2 == hi2) {
        out[2] = (l2 + v) * 0.5;
        pending--;
      }
    }
  }

  private static int key(int rank) {
    return rank << 1 | 1;
  }

  /**
   * Mean of the last {@code k} values (all held values if fewer) after dropping {@code floor(trim *
   * n)} of the smallest and of the largest, n being the number of values averaged over. {@code
   * trim} is in [0, 0.5).
   */
  double trimmedMeanOfLast(int k, double trim) {
    int n = Math.min(k, size);
    if (n == 0) {
      return Double.NaN;
    }
    int drop = (int) (trim * n);
    int keep = n - 2 * drop;
    double sum = 0;
    if (n == size) {
      for (int i = drop; i < drop + keep; i++) {
        sum += sorted[i];
      }
      return sum / keep;
    }
    int newest = (int) (added - 1);
    int rank = 0;
    for (int i = 0; i < size && rank < drop + keep; i++) {
      if (newest - arrivals[i] < n) {
        if (rank >= drop) {
          sum += sorted[i];
        }
        rank++;
      }
    }
    return sum / keep;
  }

  long stateBytes() {
    return StateBytes.object(4 * 4 + 4 + 4 + 8)
        + 2 * StateBytes.doubles(capacity)
        + StateBytes.ints(capacity);
  }

  /** Index of the first entry above {@code value}; the same search as {@link #lowerBound}. */
  private int upperBound(double value) {
    int base = 0;
    int length = size;
    while (length > 1) {
      int half = length >>> 1;
      base = sorted[base + half - 1] <= value ? base + half : base;
      length -= half;
    }
    return length == 1 && sorted[base] <= value ? base + 1 : base;
  }

  /**
   * Index of the first entry not below {@code value}. The search halves a length rather than moving
   * two bounds, so each step is a compare and a conditional move: which half holds the value is a
   * coin toss, and a branch would mispredict half the time.
   */
  private int lowerBound(double value) {
    int base = 0;
    int length = size;
    while (length > 1) {
      int half = length >>> 1;
      base = sorted[base + half - 1] < value ? base + half : base;
      length -= half;
    }
    return length == 1 && sorted[base] < value ? base + 1 : base;
  }
}
