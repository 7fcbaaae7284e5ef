package org.netweather.scheduler.cluster;

import java.util.Arrays;

/**
 * pLogP with a measured gap table: g(m) interpolated linearly between measured sizes and
 * extrapolated from the last two, as Kielmann's {@code logp_mpi} queries do (docs/measurement.md,
 * "pLogP parameters").
 */
public final class PLogPModel implements CommModel {
  private final double latency;
  private final double[] sizes;
  private final double[] gaps;

  /** {@code sizes} strictly increasing, starting at 0, with one gap per size. */
  public PLogPModel(double latency, double[] sizes, double[] gaps) {
    if (sizes.length == 0 || sizes.length != gaps.length || sizes[0] != 0) {
      throw new IllegalArgumentException("pLogP table needs gaps for sizes starting at 0");
    }
    for (int i = 1; i < sizes.length; i++) {
      if (!(sizes[i] > sizes[i - 1])) {
        throw new IllegalArgumentException("pLogP sizes must increase");
      }
    }
    this.latency = latency;
    this.sizes = sizes.clone();
    this.gaps = gaps.clone();
  }

  @Override
  public String name() {
    return "pLogP";
  }

  @Override
  public double latency() {
    return latency;
  }

  @Override
  public double gap(double bytes) {
    return interpolate(sizes, gaps, bytes);
  }

  /** Piecewise-linear through (xs, ys), extrapolating the end segments. */
  static double interpolate(double[] xs, double[] ys, double x) {
    if (xs.length == 1) {
      return ys[0];
    }
    int i = Arrays.binarySearch(xs, x);
    if (i >= 0) {
      return ys[i];
    }
    int hi = Math.min(Math.max(-i - 1, 1), xs.length - 1);
    int lo = hi - 1;
    return ys[lo] + (ys[hi] - ys[lo]) * (x - xs[lo]) / (xs[hi] - xs[lo]);
  }
}
