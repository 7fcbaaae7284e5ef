package org.netweather.sensor.plogp;

import java.util.Arrays;

/**
 * Measured pLogP parameters of one directed link: L, and g, os, or at measured sizes. Queries
 * interpolate linearly between measured sizes and extrapolate from the last two, as
 * {@code logp_mpi} does.
 *
 * <p>All values are in seconds, sizes in bytes; {@link PLogPSkill} stores them as series in
 * µs: {@code plogp.latency:SRC->DST} and {@code plogp.gap.m<BYTES>:SRC->DST} etc. per size;
 * {@link #sizes()} lists the sizes measured.
 */
public final class PLogPParameters {
  private final double latency;
  private final double[] sizes;
  private final double[] gap;
  private final double[] sendOverhead;
  private final double[] receiveOverhead;

  PLogPParameters(double latency, double[] sizes, double[] gap, double[] sendOverhead,
      double[] receiveOverhead) {
    this.latency = latency;
    this.sizes = sizes.clone();
    this.gap = gap.clone();
    this.sendOverhead = sendOverhead.clone();
    this.receiveOverhead = receiveOverhead.clone();
  }

  /** L, seconds. */
  public double latency() {
    return latency;
  }

  public double[] sizes() {
    return sizes.clone();
  }

  public double gap(double bytes) {
    return interpolate(sizes, gap, bytes);
  }

  public double sendOverhead(double bytes) {
    return interpolate(sizes, sendOverhead, bytes);
  }

  public double receiveOverhead(double bytes) {
    return interpolate(sizes, receiveOverhead, bytes);
  }

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
