package org.netweather.sensor.cpu;

import java.time.Duration;

/** Measures, by trying, the share of one CPU a new CPU-bound process gets right now. */
@FunctionalInterface
public interface ActiveCpuProbe {

  /** The fraction of one core received, in [0, 1], or NaN if the probe could not run. */
  double probe();

  /** Core time one probe burns, for the probes' duty budget; zero if negligible. */
  default Duration cost() {
    return Duration.ZERO;
  }
}
