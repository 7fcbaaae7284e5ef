package org.netweather.sensor.interference;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.netweather.model.interference.InterferenceFit;
import org.netweather.sensor.Ticker;

/**
 * Runs a compute kernel on the calling thread while a transfer with a peer runs at several rates,
 * and samples both rates.
 *
 * <pre>
 * Kreaseck et al. §2.2: compute in isolation first, then introduce communication at a range of
 * rates and
 * correlate compute rate with transfer rate. Here, one phase each of:
 *
 *   1. no transfer                                  (the isolated compute rate, x = 0)
 *   2. transfer as fast as allowed (the cap)        (its achieved rate R is the ladder's top)
 *   3. transfer at f * R for each configured f      (default 0.75, 0.5, 0.25)
 *
 * Each phase yields one sample per interval: (bytes moved / interval, tasks done / interval). The
 * rate fitted is the one measured, not the one asked for, because a paced sender can fall short.
 * </pre>
 *
 * <p>The whole experiment costs about (2 + fractions) phases of one core and the transfer's bytes,
 * so run it rarely (hourly, say).
 */
public final class InterferenceExperiment {

  /** All samples of one run and the payload bytes it moved. */
  public record Result(List<InterferenceSample> samples, long bytes) {

    /**
     * Fits the samples (docs/measurement.md, "Interference rates").
     *
     * @throws IllegalArgumentException with fewer than three samples (the reading carries a
     *     standard error, which needs three), fewer than two distinct transfer rates, or no
     *     positive compute rate
     */
    public InterferenceFit fit() {
      if (samples.size() < 3) {
        throw new IllegalArgumentException("need at least 3 samples, have " + samples.size());
      }
      double[] transfer = new double[samples.size()];
      double[] compute = new double[samples.size()];
      for (int i = 0; i < transfer.length; i++) {
        transfer[i] = samples.get(i).transferMBps();
        compute[i] = samples.get(i).computeRate();
      }
      return InterferenceFit.fit(transfer, compute);
    }
  }

  private final ComputeKernel kernel;
  private final TransferDriver driver;
  private final Ticker ticker;
  private final InterferenceOptions options;

  public InterferenceExperiment(
      ComputeKernel kernel, TransferDriver driver, Ticker ticker, InterferenceOptions options) {
    this.kernel = kernel;
    this.driver = driver;
    this.ticker = ticker;
    this.options = options;
  }

  /** Runs all phases against {@code peer}; blocks for their total length. */
  public Result run(InetSocketAddress peer, Direction direction) throws IOException {
    List<InterferenceSample> samples = new ArrayList<>(runPhase(null));
    long bytes = 0;
    double top;
    try (TransferDriver.Transfer t = driver.start(peer, direction, options.maxBytesPerSecond())) {
      List<InterferenceSample> fast = runPhase(t);
      samples.addAll(fast);
      top = fast.stream().mapToDouble(InterferenceSample::transferMBps).average().orElse(0) * 1e6;
      bytes += t.bytes();
    }
    if (!(top > 0)) {
      throw new IOException("no data moved with " + peer + " at full rate");
    }
    for (double fraction : options.fractions()) {
      try (TransferDriver.Transfer t = driver.start(peer, direction, fraction * top)) {
        samples.addAll(runPhase(t));
        bytes += t.bytes();
      }
    }
    return new Result(samples, bytes);
  }

  private List<InterferenceSample> runPhase(TransferDriver.Transfer transfer) {
    long interval = options.sampleInterval().toNanos();
    long start = ticker.nanoTime();
    long end = start + options.phase().toNanos();
    long sampleStart = start;
    long bytesAtStart = transfer == null ? 0 : transfer.bytes();
    long tasks = 0;
    boolean warmingUp = true;
    List<InterferenceSample> samples = new ArrayList<>();
    long now;
    do {
      kernel.runTask();
      tasks++;
      now = ticker.nanoTime();
      if (now - sampleStart >= interval) {
        long bytes = transfer == null ? 0 : transfer.bytes();
        double seconds = (now - sampleStart) / 1e9;
        if (!warmingUp) {
          samples.add(
              new InterferenceSample((bytes - bytesAtStart) / seconds / 1e6, tasks / seconds));
        }
        warmingUp = false;
        sampleStart = now;
        bytesAtStart = bytes;
        tasks = 0;
      }
    } while (now < end);
    return samples;
  }
}
