package org.netweather.sensor.clique;

/**
 * How long a member waits for the token to come back before it regenerates it.
 *
 * <pre>
 * The original (docs/measurement.md, "Cliques and the token", step 4; clique_protocol.c):
 *
 *   err       = |cycle - expected|
 *   expected += 0.15 * (cycle - expected)
 *   deviation += 0.15 * (err - deviation)
 *   time-out  = period + expected + 2 * deviation
 *   if time-out <= period + 1 s or time-out > 2.5 * period: time-out = 2.5 * period
 *   on regeneration: time-out doubles (then the same clamp)
 *
 * The original's leader measured `cycle` as the time the token took to go round, and carried the
 * time-out in the token. Our token (netweather.v1.CliqueToken) carries no time-out, so each member
 * measures `cycle` itself, as the time between the starts of its own successive turns: the
 * original's round time when rounds outlast the period, and the period when the leader paces them.
 * The time-out is therefore at most one period more lenient than the original's, never tighter.
 * The first time-out, before any cycle is seen, is 2.5 * period, as in the original.
 * </pre>
 */
final class AdaptiveTimeout {

  static final double GAIN = 0.15;
  private static final long SECOND = 1_000_000_000L;

  private final long period;
  private double expected;
  private double deviation;
  private long timeout;

  AdaptiveTimeout(long periodNanos) {
    this.period = periodNanos;
    this.expected = periodNanos;
    this.timeout = maxTimeout();
  }

  /** Feeds the time between the starts of two successive turns of this member. */
  void observe(long cycleNanos) {
    double err = Math.abs(cycleNanos - expected);
    expected += GAIN * (cycleNanos - expected);
    deviation += GAIN * (err - deviation);
    timeout = clamp(period + expected + 2 * deviation);
  }

  /** Doubles the time-out after this member regenerated a lost token. */
  void onRegenerate() {
    timeout = clamp(2.0 * timeout);
  }

  long timeoutNanos() {
    return timeout;
  }

  private long clamp(double t) {
    if (t <= period + SECOND || t > maxTimeout()) {
      return maxTimeout();
    }
    return (long) t;
  }

  private long maxTimeout() {
    return (long) (2.5 * period);
  }
}
