package org.netweather.sensor.cpu;

import java.time.Duration;

/**
 * Options of the {@code cpu.availability} skill.
 *
 * @param checkPeriod time between checks; the activity's period (default 10 s)
 * @param activeLength wall time of one spin probe (default 1 s; the original's default could not be
 *     confirmed, docs/measurement.md, "CPU availability")
 * @param activeEvery nominal checks between probes when readings neither jump nor sit still
 *     (default 30, one probe every 5 minutes at the default period)
 * @param maxActiveDuty largest share of one core the probes may cost on average (default 0.005): it
 *     sets the fewest checks between two probes, {@code probe core time / (maxActiveDuty *
 *     checkPeriod)}: 20 for a one-thread probe, 30 for the two-core balanced probe
 * @param runQueueSamples how many times one check reads the run queue, averaged (default 10): a
 *     single reading swings by whole tasks from one millisecond to the next
 * @param runQueueSpacing time between those readings (default 10 ms, so a check spends 100 ms
 *     mostly asleep)
 */
public record CpuAvailabilityOptions(
    Duration checkPeriod,
    Duration activeLength,
    int activeEvery,
    double maxActiveDuty,
    int runQueueSamples,
    Duration runQueueSpacing) {

  public CpuAvailabilityOptions {
    if (checkPeriod.isNegative() || checkPeriod.isZero()) {
      throw new IllegalArgumentException("checkPeriod must be positive");
    }
    if (activeEvery < 1) {
      throw new IllegalArgumentException("activeEvery must be >= 1");
    }
    if (!(maxActiveDuty > 0 && maxActiveDuty <= 1)) {
      throw new IllegalArgumentException("maxActiveDuty must be in (0, 1]");
    }
    if (runQueueSamples < 1 || runQueueSpacing.isNegative()) {
      throw new IllegalArgumentException("need runQueueSamples >= 1 and runQueueSpacing >= 0");
    }
  }

  /** The defaults above. */
  public static CpuAvailabilityOptions defaults() {
    return new CpuAvailabilityOptions(
        Duration.ofSeconds(10), Duration.ofSeconds(1), 30, 0.005, 10, Duration.ofMillis(10));
  }

  /** Fewest checks between two probes so that probes stay under {@link #maxActiveDuty}. */
  public int minChecksBetweenProbes() {
    return minChecksBetweenProbes(activeLength);
  }

  /**
   * Like {@link #minChecksBetweenProbes()} for a probe that burns {@code probeCost} of core time
   * (more than its length when it spins several threads).
   */
  public int minChecksBetweenProbes(Duration probeCost) {
    double checks = probeCost.toNanos() / (maxActiveDuty * checkPeriod.toNanos());
    return (int) Math.max(1, Math.ceil(checks - 1e-9));
  }
}
