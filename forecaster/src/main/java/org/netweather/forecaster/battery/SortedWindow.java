package org.netweather.forecaster.battery;

/**
 * The last {@code capacity} measurements of a series, kept both in arrival order and sorted, so
 * that medians and trimmed means of the last k values (any k up to the capacity) are cheap.
 *
 * <p>Each sorted entry carries its arrival number, which lets one window answer order-statistic
 * queries about any suffix of the history: the median of the last k values is found by walking
 * the sorted array and counting only entries younger than k. Equal values are kept in arrival
 * order, so the oldest entry (the one to evict) is always the first of its run of equals and is
 * found by one binary search.
 *
 * <p>Cost per {@link #add}: a binary search (O(log capacity) comparisons) plus one array shift of
 * at most {@code capacity} entries. For the windows of the NWS battery (capacity 5, 31 and 51)
 * that shift moves at most 408 bytes, which beats any pointer-based order-statistics structure;
 * it is O(capacity) all the same, so do not use this class for windows much beyond a hundred.
 * Queries over the whole window are O(1) (median) or O(capacity) (trimmed mean); queries over a
 * shorter suffix walk the sorted array, O(capacity).
 *
 * <p>Several predictors may share one window (see {@link WindowPool}); {@link #offer} makes the
 * first of them to see a measurement add it and the others skip it.
 */
final class SortedWindow {
  private final int capacity;
  private final double[] ring; // arrival order: the value with arrival number a is at a % capacity
  private final double[] sorted; // ascending; ties in arrival order
  private final int[] arrivals; // arrival number of sorted[i]; int arithmetic wraps harmlessly
  private int size;
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
    int slot = (int) (added % capacity);
    int position;
    if (size == capacity) {
      int evict = lowerBound(ring[slot], size);
      // Slide the tail left over the evicted entry, then insert as usual.
      System.arraycopy(sorted, evict + 1, sorted, evict, size - evict - 1);
      System.arraycopy(arrivals, evict + 1, arrivals, evict, size - evict - 1);
      size--;
    }
    position = upperBound(value, size);
    System.arraycopy(sorted, position, sorted, position + 1, size - position);
    System.arraycopy(arrivals, position, arrivals, position + 1, size - position);
    sorted[position] = value;
    arrivals[position] = (int) added;
    size++;
    ring[slot] = value;
    added++;
  }

  /** The value that arrived {@code age} measurements ago (0 = newest); age < size. */
  double recent(int age) {
    return ring[(int) ((added - 1 - age) % capacity)];
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
    int c0 = 0;
    int c1 = 0;
    int c2 = 0;
    double l0 = 0;
    double l1 = 0;
    double l2 = 0;
    int lo0 = (n0 - 1) >> 1;
    int hi0 = n0 >> 1;
    int lo1 = (n1 - 1) >> 1;
    int hi1 = n1 >> 1;
    int lo2 = (n2 - 1) >> 1;
    int hi2 = n2 >> 1;
    // Stop as soon as all three upper middles are found, typically a little past the middle.
    int pending = 3;
    for (int i = 0; i < size && pending > 0; i++) {
      int age = newest - arrivals[i];
      double v = sorted[i];
      if (age < n0) {
        if (c0 == lo0) {
          l0 = v;
        }
        if (c0 == hi0) {
          out[0] = (l0 + v) * 0.5;
          pending--;
        }
        c0++;
      }
      if (age < n1) {
        if (c1 == lo1) {
          l1 = v;
        }
        if (c1 == hi1) {
          out[1] = (l1 + v) * 0.5;
          pending--;
        }
        c1++;
      }
      if (age < n2) {
        if (c2 == lo2) {
          l2 = v;
        }
        if (c2 == hi2) {
          out[2] = (l2 + v) * 0.5;
          pending--;
        }
        c2++;
      }
    }
  }

  /**
   * Mean of the last {@code k} values (all held values if fewer) after dropping
   * {@code floor(trim * n)} of the smallest and of the largest, n being the number of values
   * averaged over. {@code trim} is in [0, 0.5).
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
    return StateBytes.object(4 + 4 + 4 + 4 + 4 + 8)
        + 2 * StateBytes.doubles(capacity)
        + StateBytes.ints(capacity);
  }

  private int lowerBound(double value, int length) {
    int lo = 0;
    int hi = length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private int upperBound(double value, int length) {
    int lo = 0;
    int hi = length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] <= value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
