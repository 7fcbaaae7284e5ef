package org.netweather.sensor.interference;

import java.util.SplittableRandom;

/**
 * The paper's atomic compute task: k diagonals of the square of an n x n int matrix.
 *
 * <p>Kreaseck et al. §2: n = 1024 (a 4 MB matrix) and k = 1. Each diagonal element of A^2 is a dot
 * product of a row with a column, so every task walks the whole matrix, half of it down columns.
 * That memory footprint matters: the paper saw interference rates halve as the matrix shrank to 8 x
 * 8 (§2.5), because much of the interference is contention for caches and memory bandwidth.
 *
 * <p>Not thread-safe; one experiment owns one kernel.
 */
public final class MatrixDiagonalKernel implements ComputeKernel {

  private final int n;
  private final int k;
  private final int[] a;
  private long checksum;

  /** The paper's kernel: n = 1024, k = 1. */
  public static MatrixDiagonalKernel paper() {
    return new MatrixDiagonalKernel(1024, 1);
  }

  public MatrixDiagonalKernel(int n, int k) {
    if (n < 1 || k < 1 || k > n) {
      throw new IllegalArgumentException("need 1 <= k <= n, got n=" + n + " k=" + k);
    }
    this.n = n;
    this.k = k;
    this.a = new int[n * n];
    SplittableRandom random = new SplittableRandom(n * 31L + k);
    for (int i = 0; i < a.length; i++) {
      a[i] = random.nextInt(1 << 10);
    }
  }

  @Override
  public void runTask() {
    long sum = 0;
    for (int d = 0; d < k; d++) {
      for (int i = 0; i < n; i++) {
        int j = (i + d) % n;
        int row = i * n;
        int dot = 0;
        for (int l = 0; l < n; l++) {
          dot += a[row + l] * a[l * n + j];
        }
        sum += dot;
      }
    }
    // Kept so the JIT cannot discard the work.
    checksum += sum;
  }

  /** Sum of every result computed so far; only there to keep the work observable. */
  public long checksum() {
    return checksum;
  }
}
