package org.netweather.sensor.plogp;

import java.util.Random;

/**
 * A {@link SimulatedLink} with the timing noise of a shared host's loopback, seeded: every round
 * trip is either fast or about 8 µs slower (the peer's thread was awake or had to be woken), a few
 * are hundreds of µs slower (preempted), and after a long burst a while of round trips runs {@code
 * slowAfterBurst} slower (the host busy elsewhere; on a 2-core box a cold RTT(0) read 80 µs against
 * 16-23 µs before and after). The noise is one-sided: nothing runs faster than the link itself.
 * Send and receive overheads get the same kind of noise.
 */
final class ShakyLink implements PLogPChannel {
  private final SimulatedLink link;
  private final double slowAfterBurst;
  private final int slowRoundTrips;
  private final Random rnd;
  private int slowLeft;
  int roundTrips;

  ShakyLink(SimulatedLink link, double slowAfterBurst, int slowRoundTrips, long seed) {
    this.link = link;
    this.slowAfterBurst = slowAfterBurst;
    this.slowRoundTrips = slowRoundTrips;
    this.rnd = new Random(seed);
  }

  private double noise() {
    double t = rnd.nextBoolean() ? 8e-6 * rnd.nextDouble() + 6e-6 : rnd.nextDouble() * 1e-6;
    return rnd.nextInt(40) == 0 ? t + 50e-6 + 400e-6 * rnd.nextDouble() : t;
  }

  @Override
  public double burst(int count, int bytes) {
    if (count >= 1024) {
      slowLeft = slowRoundTrips;
    }
    return link.burst(count, bytes) + noise();
  }

  @Override
  public double roundTrip(int bytes) {
    roundTrips++;
    double slow = slowLeft-- > 0 ? slowAfterBurst : 0;
    return link.roundTrip(bytes) + noise() + slow;
  }

  @Override
  public double sendOverhead(int bytes) {
    return link.sendOverhead(bytes) + noise() / 4;
  }

  @Override
  public double receiveOverhead(int bytes, double delaySeconds) {
    return link.receiveOverhead(bytes, delaySeconds) + noise() / 4;
  }
}
