package org.netweather.sensor.cpu;

/**
 * The passive estimates of one check: what a new process would get according to two cheap signals,
 * each NaN when the platform lacks it.
 *
 * <pre>
 * Both use the original's formula for a new process (docs/measurement.md, "CPU availability",
 * passiveCpu.c):
 *
 *   available = cpus / (competitors + 1), capped at 1 core
 *
 * loadAverage: competitors = one-minute load average (the original's only live signal; smooth but
 *              a minute late).
 * runQueue:    competitors = max(runnable tasks now, cores busy since the last check); the run
 *              queue sees demand beyond saturation that tick counts cannot, the tick count smooths
 *              the run queue's noise below saturation.
 * </pre>
 */
public record PassiveCpu(double loadAverage, double runQueue) {

  /** Number of passive methods. */
  static final int METHODS = 2;

  /** Builds both estimates from raw signals; any NaN input gives a NaN estimate. */
  public static PassiveCpu from(double cpus, double load, double runnable, double busyCores) {
    double competitors = Double.isNaN(busyCores) ? runnable : Math.max(runnable, busyCores);
    return new PassiveCpu(forNewProcess(cpus, load), forNewProcess(cpus, competitors));
  }

  /** {@code cpus / (competitors + 1)} capped to [0, 1]; NaN when either input is. */
  static double forNewProcess(double cpus, double competitors) {
    if (Double.isNaN(cpus) || Double.isNaN(competitors)) {
      return Double.NaN;
    }
    return Math.max(0, Math.min(1, cpus / (Math.max(0, competitors) + 1)));
  }

  double get(int method) {
    return method == 0 ? loadAverage : runQueue;
  }
}
