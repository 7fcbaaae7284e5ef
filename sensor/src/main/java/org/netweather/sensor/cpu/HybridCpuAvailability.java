package org.netweather.sensor.cpu;

/**
 * Turns passive CPU readings into the share of a core a new process would get, corrected by the
 * error seen at the last active probe.
 *
 * <pre>
 * The original hybrid sensor (docs/measurement.md, "CPU availability", hybridCpu.c):
 *
 *   1. every check takes the passive estimates (see PassiveCpu);
 *   2. when the fuse says so (see ActiveProbeFuse), an active probe runs and its result is
 *      reported as is; the passive method whose estimate was closest to it becomes the one
 *      used until the next probe, and bias = active - that estimate;
 *   3. between probes, report = passive + bias, clipped to [0, 1].
 * </pre>
 *
 * <p>The bias carries what passive signals cannot see: CPU quotas, nice levels, hyper-threads that
 * are not whole cores, steal by a hypervisor.
 *
 * <p>Not thread-safe; {@link CpuAvailabilitySkill} serialises calls.
 */
public final class HybridCpuAvailability {

  private final ActiveProbeFuse fuse;
  private int method = 1;
  private double bias;
  private double lastBias = Double.NaN;
  private double lastPassive = Double.NaN;

  public HybridCpuAvailability(ActiveProbeFuse fuse) {
    this.fuse = fuse;
  }

  /** Runs one check, calling {@code probe} if an active probe is due. */
  public CpuEstimate check(PassiveCpu passive, ActiveCpuProbe probe) {
    if (Double.isNaN(passive.get(method))) {
      method = Double.isNaN(passive.get(0)) ? 1 : 0;
    }
    double current = passive.get(method);
    double move = Double.isNaN(lastPassive) || Double.isNaN(current) ? 0 : current - lastPassive;
    lastPassive = current;
    boolean due = fuse.onCheck(Math.abs(move)) || Double.isNaN(current);
    if (due) {
      double active = probe.probe();
      if (!Double.isNaN(active)) {
        active = clip(active);
        learn(passive, active);
        lastPassive = passive.get(method);
        return new CpuEstimate(active, lastPassive, bias, true);
      }
      // The probe could not run; wait a whole fuse before trying again rather than every check.
      fuse.onProbe(Double.NaN);
    }
    if (Double.isNaN(current)) {
      throw new IllegalStateException("no passive CPU signal and the active probe failed");
    }
    return new CpuEstimate(clip(current + bias), current, bias, false);
  }

  private void learn(PassiveCpu passive, double active) {
    int best = method;
    double bestError = Double.POSITIVE_INFINITY;
    for (int m = 0; m < PassiveCpu.METHODS; m++) {
      double error = Math.abs(active - passive.get(m));
      if (error < bestError) {
        bestError = error;
        best = m;
      }
    }
    method = best;
    bias = Double.isInfinite(bestError) ? 0 : active - passive.get(best);
    fuse.onProbe(Double.isNaN(lastBias) ? Double.NaN : bias - lastBias);
    lastBias = bias;
  }

  private static double clip(double v) {
    return Math.max(0, Math.min(1, v));
  }
}
