package org.netweather.scheduler.jacobi;

/**
 * Whole columns from real-valued strip areas, keeping the slowest strip as fast as possible and
 * every strip within its host's memory.
 *
 * <p>Berman et al., SC'96 only says "round partitions accordingly"; docs/schedulers/jacobi.md
 * suggests largest remainder. We start from the floors, as largest remainder does, but hand each
 * spare column to the strip whose time {@code N·w_i·P_i + C_i} grows least by taking it. Among all
 * roundings that keep every strip at or above its floor, this greedy minimises the slowest strip
 * (time is increasing in width, so the exchange argument of min-max allocation applies), so it is
 * never worse than largest remainder and sometimes better: in case J7 at N = 6000 largest remainder
 * gives the spare column to a workstation (1.014 s) where a SP node costs less (1.009 s). With
 * equal strip times it gives the column to the fastest host, which is what J1 expects.
 */
public final class StripRounder {
  private StripRounder() {}

  /**
   * Widths in columns for {@code areas} (points) of an N-row grid, given each strip's time per
   * point {@code p} and communication {@code c}; null when the memory caps leave no way to place
   * all N columns.
   */
  public static int[] round(double[] areas, int n, double[] capPoints, double[] p, double[] c) {
    int k = areas.length;
    int[] w = new int[k];
    long[] maxW = new long[k];
    long sum = 0;
    for (int i = 0; i < k; i++) {
      maxW[i] =
          Double.isFinite(capPoints[i])
              ? Math.min(n, (long) Math.floor(capPoints[i] / n + 1e-9))
              : n;
      // The tolerance keeps 332.9999999 from losing a column to floating-point noise.
      long f = (long) Math.floor(Math.max(0, areas[i] / n) + 1e-9);
      w[i] = (int) Math.min(f, maxW[i]);
      sum += w[i];
    }
    // Only reachable through the tolerance: take back from the slowest strips.
    while (sum > n) {
      int slowest = -1;
      for (int i = 0; i < k; i++) {
        if (w[i] > 0
            && (slowest < 0
                || time(w[i], n, p[i], c[i]) > time(w[slowest], n, p[slowest], c[slowest]))) {
          slowest = i;
        }
      }
      w[slowest]--;
      sum--;
    }
    // A binary min-heap of strip indices keyed by the strip's time with one more column; a
    // primitive heap because this runs for every candidate of a 1 000-host list.
    int[] heap = new int[k];
    double[] key = new double[k];
    int size = 0;
    for (int i = 0; i < k; i++) {
      if (w[i] < maxW[i]) {
        key[i] = time(w[i] + 1, n, p[i], c[i]);
        heap[size++] = i;
      }
    }
    for (int i = size / 2 - 1; i >= 0; i--) {
      siftDown(heap, size, i, key);
    }
    for (long left = n - sum; left > 0; left--) {
      if (size == 0) {
        return null;
      }
      int i = heap[0];
      w[i]++;
      if (w[i] < maxW[i]) {
        key[i] = time(w[i] + 1, n, p[i], c[i]);
      } else {
        heap[0] = heap[--size];
      }
      siftDown(heap, size, 0, key);
    }
    return w;
  }

  private static void siftDown(int[] heap, int size, int at, double[] key) {
    while (true) {
      int least = at;
      for (int child = 2 * at + 1; child <= 2 * at + 2 && child < size; child++) {
        if (before(heap[child], heap[least], key)) {
          least = child;
        }
      }
      if (least == at) {
        return;
      }
      int t = heap[at];
      heap[at] = heap[least];
      heap[least] = t;
      at = least;
    }
  }

  /** Smaller time first; equal times to the earlier strip, so results are deterministic. */
  private static boolean before(int x, int y, double[] key) {
    return key[x] < key[y] || (key[x] == key[y] && x < y);
  }

  private static double time(long width, int n, double p, double c) {
    return (double) n * width * p + c;
  }
}
