package org.netweather.scheduler.pipeline;

/**
 * One filter's tuning-run statistics (the paper's Table 1), in seconds and bytes.
 *
 * <p>Parser convention (docs/schedulers/pipelines.md): in Table 1, t_process − (t_read + t_write +
 * t_compute) equals t_readfirst to 0.2 ms, so t_read <em>excludes</em> the first read. A filter's
 * cycles are its input buffers, or its output buffers when it has no input (a source).
 *
 * @param inBuffers buffers read over all input streams (0 for a source)
 * @param inBytes bytes read
 * @param outBuffers buffers written (0 for a sink)
 * @param outBytes bytes written
 */
public record FilterStats(
    String name,
    double tTotal,
    double tWorkq,
    double tInit,
    double tProcess,
    double tRead,
    double tWrite,
    double tReadFirst,
    double tCompute,
    double tWriteFirst,
    double tFinalize,
    long inBuffers,
    double inBytes,
    long outBuffers,
    double outBytes) {
  public FilterStats {
    if (!(tProcess > 0) || !(tCompute > 0)) {
      throw new IllegalArgumentException("filter " + name + ": tProcess and tCompute must be > 0");
    }
    if (inBuffers < 0 || outBuffers < 0 || inBytes < 0 || outBytes < 0) {
      throw new IllegalArgumentException("filter " + name + ": negative stream statistics");
    }
    if (inBuffers == 0 && outBuffers == 0) {
      throw new IllegalArgumentException("filter " + name + ": reads and writes nothing");
    }
  }

  /** Filter cycles in the tuning run (ncy). */
  public long cycles() {
    return inBuffers > 0 ? inBuffers : outBuffers;
  }

  /** t_total − (t_workq + t_init + t_process + t_finalize): should be about 0. */
  public double accountingGap() {
    return tTotal - (tWorkq + tInit + tProcess + tFinalize);
  }

  /** t_process − (t_read + t_write + t_compute + t_readfirst): should be about 0. */
  public double processGap() {
    return tProcess - (tRead + tWrite + tCompute + tReadFirst);
  }

  /** t_writefirst / t_process: where in [EST, EFT] the first write happens (equation 2). */
  public double writeFraction() {
    return tWriteFirst / tProcess;
  }

  /** Cycles per second in the tuning run, stalls included. */
  public double observedRate() {
    return cycles() / tProcess;
  }

  /** Cycles per second on a tuning-run host if never starved: ncy / t_compute. */
  public double computeRate() {
    return cycles() / tCompute;
  }

  /** CPU seconds per cycle on a tuning-run host (power 1, availability 1). */
  public double computePerCycle() {
    return tCompute / cycles();
  }

  public double inBytesPerBuffer() {
    return inBuffers == 0 ? 0 : inBytes / inBuffers;
  }

  public double outBytesPerBuffer() {
    return outBuffers == 0 ? 0 : outBytes / outBuffers;
  }

  /** Output buffers per cycle. */
  public double outPerCycle() {
    return (double) outBuffers / cycles();
  }
}
