package org.netweather.sensor.interference;

import java.time.Duration;
import java.util.List;

/**
 * How an interference experiment samples.
 *
 * @param phase how long each transfer rate is held (default 2 s)
 * @param sampleInterval averaging interval of one sample (default 250 ms); the first sample of each
 *     phase is dropped because the transfer is still ramping up
 * @param fractions the rates tried after the unlimited phase, as fractions of the rate that phase
 *     reached (default 0.75, 0.5, 0.25)
 * @param maxBytesPerSecond ceiling on every transfer, so an experiment on a fast path does not cost
 *     gigabytes (default 50 MB/s, roughly 100 MB per experiment)
 */
public record InterferenceOptions(
    Duration phase, Duration sampleInterval, List<Double> fractions, double maxBytesPerSecond) {

  public InterferenceOptions {
    if (sampleInterval.isZero()
        || sampleInterval.isNegative()
        || phase.compareTo(sampleInterval.multipliedBy(3)) < 0) {
      throw new IllegalArgumentException("phase must span at least three sample intervals");
    }
    fractions = List.copyOf(fractions);
    for (double f : fractions) {
      if (!(f > 0 && f < 1)) {
        throw new IllegalArgumentException("fractions must lie in (0, 1), got " + f);
      }
    }
    if (!(maxBytesPerSecond > 0)) {
      throw new IllegalArgumentException("maxBytesPerSecond must be positive");
    }
  }

  /** The defaults above. */
  public static InterferenceOptions defaults() {
    return new InterferenceOptions(
        Duration.ofSeconds(2), Duration.ofMillis(250), List.of(0.75, 0.5, 0.25), 50e6);
  }
}
