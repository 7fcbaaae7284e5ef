package org.netweather.sensor.clique;

import java.time.Duration;

/**
 * Tuning of the clique protocol.
 *
 * @param passTimeout how long to wait for a member to answer a token hand-over before skipping it
 *     (default 5 s)
 * @param maxExperimentTimeout ceiling on one experiment's time-out; the time-out itself is the
 *     original's connect time-out, {@code period / members - 1 s}, at least 1 s (default 60 s)
 */
public record CliqueOptions(Duration passTimeout, Duration maxExperimentTimeout) {

  public static CliqueOptions defaults() {
    return new CliqueOptions(Duration.ofSeconds(5), Duration.ofSeconds(60));
  }

  /** The time-out of one experiment in a clique of {@code members} with {@code period}. */
  long experimentTimeoutNanos(Duration period, int members) {
    long derived = period.toNanos() / Math.max(1, members) - 1_000_000_000L;
    return Math.min(maxExperimentTimeout.toNanos(), Math.max(1_000_000_000L, derived));
  }
}
