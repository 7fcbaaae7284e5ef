package org.netweather.sensor.interference;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.netweather.model.interference.InterferenceFit;
import org.netweather.sensor.PeerSkill;
import org.netweather.sensor.Reading;
import org.netweather.sensor.Ticker;

/**
 * The {@code interference.send} / {@code interference.recv} skill: the fraction of this host's
 * compute rate lost per MB/s sent to (received from) a peer.
 *
 * <p>Runs an {@link InterferenceExperiment} on {@code executor} (it occupies one thread for the
 * whole experiment) and fits it with {@link InterferenceFit}. The reading's value is IR in {@code
 * fraction per MB/s}; extras carry {@code stderr}, {@code intercept}, {@code points} and {@code
 * r2}; {@code bytesSpent} is the payload moved.
 *
 * <pre>{@code
 * PeerSkill send = new InterferenceSkill(Direction.SEND, MatrixDiagonalKernel::paper,
 *     new ProbeTransferDriver(probeClient), Ticker.system(), InterferenceOptions.defaults(),
 *     experimentExecutor);
 * send.measure(peerProbeAddress).thenAccept(r -> store(r));
 * }</pre>
 */
public final class InterferenceSkill implements PeerSkill {

  public static final String UNIT = "fraction per MB/s";

  private final Direction direction;
  private final Supplier<? extends ComputeKernel> kernels;
  private final TransferDriver driver;
  private final Ticker ticker;
  private final InterferenceOptions options;
  private final Executor executor;

  /**
   * @param kernels makes a fresh kernel per experiment, so its 4 MB matrix is garbage between
   *     experiments rather than held for an hour
   */
  public InterferenceSkill(
      Direction direction,
      Supplier<? extends ComputeKernel> kernels,
      TransferDriver driver,
      Ticker ticker,
      InterferenceOptions options,
      Executor executor) {
    this.direction = direction;
    this.kernels = kernels;
    this.driver = driver;
    this.ticker = ticker;
    this.options = options;
    this.executor = executor;
  }

  @Override
  public String name() {
    return direction.resource();
  }

  @Override
  public String unit() {
    return UNIT;
  }

  @Override
  public CompletionStage<Reading> measure(InetSocketAddress peer) {
    return CompletableFuture.supplyAsync(() -> run(peer), executor);
  }

  private Reading run(InetSocketAddress peer) {
    InterferenceExperiment.Result result;
    try {
      result =
          new InterferenceExperiment(kernels.get(), driver, ticker, options).run(peer, direction);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    InterferenceFit ir = result.fit();
    return new Reading(
        ir.rate(),
        UNIT,
        result.bytes(),
        Map.of(
            "stderr", ir.rateStdError(),
            "intercept", ir.intercept(),
            "points", (double) ir.points(),
            "r2", ir.rSquared()));
  }
}
