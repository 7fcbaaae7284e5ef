package org.netweather.sensor.cpu;

/** Measures, by trying, the share of one CPU a new CPU-bound process gets right now. */
@FunctionalInterface
public interface ActiveCpuProbe {

  /** The fraction of one core received, in [0, 1], or NaN if the probe could not run. */
  double probe();
}
