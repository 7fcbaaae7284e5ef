package org.netweather.model.plogp;

import java.util.Arrays;

/**
 * One pLogP parameter (the gap g, or the overheads os, or) measured at a few message sizes, and its
 * value at any size: linear between measured sizes and extrapolated from the nearest two beyond
 * them, as the {@code logp_mpi} queries of T. Kielmann, H. E. Bal, K. Verstoep, "Fast Measurement
 * of LogP Parameters for Message Passing Platforms", IPDPS 2000 Workshops, LNCS 1800, 2000, do
 * (docs/measurement.md, "pLogP parameters").
 *
 * <p>The sensor builds these from its measurements; the broadcast schedulers query them. Sizes in
 * bytes, values in whatever unit the caller measured (seconds on the sensor).
 */
public final class PLogPTable {
  private final double[] sizes;
  private final double[] values;

  /**
   * @param sizes measured sizes, strictly increasing, at least one
   * @param values the parameter at each size
   * @throws IllegalArgumentException if the arrays are empty or differ in length, or the sizes do
   *     not increase
   */
  public PLogPTable(double[] sizes, double[] values) {
    if (sizes.length == 0 || sizes.length != values.length) {
      throw new IllegalArgumentException("pLogP table needs one value per size, at least one");
    }
    for (int i = 1; i < sizes.length; i++) {
      if (!(sizes[i] > sizes[i - 1])) {
        throw new IllegalArgumentException("pLogP sizes must increase");
      }
    }
    this.sizes = sizes.clone();
    this.values = values.clone();
  }

  /** The sizes measured, in increasing order. */
  public double[] sizes() {
    return sizes.clone();
  }

  /** The parameter at {@code bytes}: exact at a measured size, piecewise linear elsewhere. */
  public double at(double bytes) {
    if (sizes.length == 1) {
      return values[0];
    }
    int i = Arrays.binarySearch(sizes, bytes);
    if (i >= 0) {
      return values[i];
    }
    // Insertion point clamped to [1, n - 1]: below the first or above the last size, the end
    // segment is extended.
    int hi = Math.min(Math.max(-i - 1, 1), sizes.length - 1);
    int lo = hi - 1;
    return values[lo] + (values[hi] - values[lo]) * (bytes - sizes[lo]) / (sizes[hi] - sizes[lo]);
  }
}
