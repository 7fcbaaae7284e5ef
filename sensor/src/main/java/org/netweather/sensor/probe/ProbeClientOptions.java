package org.netweather.sensor.probe;

import java.time.Duration;

/**
 * Options of a {@link ProbeClient}; see {@link TrainRateEstimator} for the bandwidth method they
 * tune.
 *
 * @param timeout deadline of any one experiment (default 10 s, the original's latency time-out)
 * @param latencyPings 1-byte round trips per latency measurement; the median is reported (default
 *     5)
 * @param markInterval how often the sink reports progress (default 5 ms)
 * @param minTrain shortest bandwidth train, receiver time (default 100 ms; raised to 8 RTTs)
 * @param maxTrain longest bandwidth train, receiver time (default 800 ms: under a tenth of iperf3's
 *     default 10 s, so an unconverged train still costs under a tenth of its bytes; raised to 16
 *     RTTs on long paths)
 * @param maxTrainBytes most payload one train may send (default 64 MiB)
 * @param tolerance relative difference of the last two quarters' rates that counts as converged
 *     (default 0.03)
 * @param maxTransferBytes most payload one interference transfer may move (default 1 GiB)
 * @param key the site's probe key, to seal every hello with (default none: unsealed hellos)
 */
public record ProbeClientOptions(
    Duration timeout,
    int latencyPings,
    Duration markInterval,
    Duration minTrain,
    Duration maxTrain,
    long maxTrainBytes,
    double tolerance,
    long maxTransferBytes,
    ProbeKey key) {

  public ProbeClientOptions {
    if (latencyPings < 1) {
      throw new IllegalArgumentException("latencyPings must be >= 1");
    }
    if (markInterval.toNanos() < 1_000 || minTrain.compareTo(maxTrain) > 0) {
      throw new IllegalArgumentException("need markInterval >= 1 us and minTrain <= maxTrain");
    }
    if (maxTrainBytes < PacedWriter.CHUNK || !(tolerance > 0)) {
      throw new IllegalArgumentException("need maxTrainBytes >= 64 KiB and tolerance > 0");
    }
  }

  /** The defaults above. */
  public static ProbeClientOptions defaults() {
    return new ProbeClientOptions(
        Duration.ofSeconds(10),
        5,
        Duration.ofMillis(5),
        Duration.ofMillis(100),
        Duration.ofMillis(800),
        64L << 20,
        0.03,
        1L << 30,
        null);
  }

  /** These options sealing hellos with {@code key} (null: unsealed). */
  public ProbeClientOptions withKey(ProbeKey key) {
    return new ProbeClientOptions(
        timeout,
        latencyPings,
        markInterval,
        minTrain,
        maxTrain,
        maxTrainBytes,
        tolerance,
        maxTransferBytes,
        key);
  }

  /** These options with another experiment deadline. */
  public ProbeClientOptions withTimeout(Duration timeout) {
    return new ProbeClientOptions(
        timeout,
        latencyPings,
        markInterval,
        minTrain,
        maxTrain,
        maxTrainBytes,
        tolerance,
        maxTransferBytes,
        key);
  }

  /** Bytes of the hello each connection opens with. */
  public int helloBytes() {
    return key == null ? ProbeHello.LENGTH : ProbeKey.SEALED_LENGTH;
  }

  /** These options with other train caps, e.g. for tests on loopback. */
  public ProbeClientOptions withTrain(Duration min, Duration max, long maxBytes) {
    return new ProbeClientOptions(
        timeout, latencyPings, markInterval, min, max, maxBytes, tolerance, maxTransferBytes, key);
  }
}
