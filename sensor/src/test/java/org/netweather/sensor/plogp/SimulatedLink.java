package org.netweather.sensor.plogp;

import java.util.Random;
import java.util.function.DoubleUnaryOperator;

/**
 * A link that answers pLogP probes from known parameters: a message of m bytes keeps the sender
 * busy g(m) and arrives L later, so a burst of n takes n·g(m) + 2L + g(0) and RTT(m) = 2L + g(m) +
 * g(0). Optional multiplicative Gaussian noise, seeded.
 */
final class SimulatedLink implements PLogPChannel {
  final double latency;
  final DoubleUnaryOperator gap;
  final DoubleUnaryOperator os;
  final DoubleUnaryOperator or;
  private final double noise;
  private final Random rnd;
  int probes;

  SimulatedLink(
      double latency,
      DoubleUnaryOperator gap,
      DoubleUnaryOperator os,
      DoubleUnaryOperator or,
      double noise,
      long seed) {
    this.latency = latency;
    this.gap = gap;
    this.os = os;
    this.or = or;
    this.noise = noise;
    this.rnd = new Random(seed);
  }

  private double jitter(double t) {
    probes++;
    return noise == 0 ? t : t * (1 + noise * rnd.nextGaussian());
  }

  @Override
  public double burst(int count, int bytes) {
    return jitter(count * gap.applyAsDouble(bytes) + 2 * latency + gap.applyAsDouble(0));
  }

  @Override
  public double roundTrip(int bytes) {
    return burst(1, bytes);
  }

  @Override
  public double sendOverhead(int bytes) {
    return jitter(os.applyAsDouble(bytes));
  }

  @Override
  public double receiveOverhead(int bytes, double delaySeconds) {
    return jitter(or.applyAsDouble(bytes));
  }
}
