package org.netweather.scheduler.cluster;

import org.netweather.model.plogp.PLogPTable;

/**
 * pLogP with a measured gap table: g(m) interpolated linearly between measured sizes and
 * extrapolated from the last two ({@link PLogPTable}), as Kielmann's {@code logp_mpi} queries do
 * (docs/measurement.md, "pLogP parameters").
 */
public final class PLogPModel implements CommModel {
  private final double latency;
  private final PLogPTable gaps;

  /** {@code sizes} strictly increasing, starting at 0, with one gap per size. */
  public PLogPModel(double latency, double[] sizes, double[] gaps) {
    if (sizes.length == 0 || sizes.length != gaps.length || sizes[0] != 0) {
      throw new IllegalArgumentException("pLogP table needs gaps for sizes starting at 0");
    }
    this.latency = latency;
    this.gaps = new PLogPTable(sizes, gaps);
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
    return gaps.at(bytes);
  }
}
