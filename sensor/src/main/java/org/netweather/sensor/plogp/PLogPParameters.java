package org.netweather.sensor.plogp;

import org.netweather.model.plogp.PLogPTable;

/**
 * Measured pLogP parameters of one directed link: L, and g, os, or at measured sizes. Queries
 * interpolate linearly between measured sizes and extrapolate from the last two ({@link
 * PLogPTable}), as {@code logp_mpi} does (docs/measurement.md, "pLogP parameters").
 *
 * <p>All values are in seconds, sizes in bytes; {@link PLogPSkill} stores them as series in µs:
 * {@code plogp.latency:SRC->DST} and {@code plogp.gap.m<BYTES>:SRC->DST} etc. per size; {@link
 * #sizes()} lists the sizes measured.
 */
public final class PLogPParameters {
  private final double latency;
  private final PLogPTable gap;
  private final PLogPTable sendOverhead;
  private final PLogPTable receiveOverhead;

  PLogPParameters(
      double latency,
      double[] sizes,
      double[] gap,
      double[] sendOverhead,
      double[] receiveOverhead) {
    this.latency = latency;
    this.gap = new PLogPTable(sizes, gap);
    this.sendOverhead = new PLogPTable(sizes, sendOverhead);
    this.receiveOverhead = new PLogPTable(sizes, receiveOverhead);
  }

  /** L, seconds. */
  public double latency() {
    return latency;
  }

  public double[] sizes() {
    return gap.sizes();
  }

  public double gap(double bytes) {
    return gap.at(bytes);
  }

  public double sendOverhead(double bytes) {
    return sendOverhead.at(bytes);
  }

  public double receiveOverhead(double bytes) {
    return receiveOverhead.at(bytes);
  }
}
