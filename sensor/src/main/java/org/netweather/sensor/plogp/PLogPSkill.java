package org.netweather.sensor.plogp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netweather.sensor.Reading;
import org.netweather.sensor.Ticker;
import org.netweather.sensor.probe.PLogPConnection;
import org.netweather.sensor.probe.ProbeClient;

/**
 * The {@code plogp} skill: one {@link PLogPMeasurement} against a peer's probe port on a fresh
 * connection, in µs (the unit of {@code org.netweather.scheduler.cluster.CommModel}).
 *
 * <p>The reading's value is L; its extras are the series to store, {@code plogp.latency} and, for 0
 * and every power-of-two size measured, {@code plogp.gap.m<BYTES>}, {@code plogp.os.m<BYTES>},
 * {@code plogp.or.m<BYTES>}. Midpoints the measurement inserted are left out of the series: they
 * move from run to run, and each would be a new series.
 */
public final class PLogPSkill implements PeerSeriesSkill {
  public static final String NAME = "plogp";
  static final String PREFIX = NAME + ".";
  static final long WARM_UP_NANOS = 1_000_000_000L;

  private final ProbeClient client;
  private final PLogPMeasurement.Settings settings;
  private final Duration budget;
  private final Ticker ticker;
  private final Executor executor;

  /**
   * @param budget the longest one measurement may take
   * @param executor runs measurements, which block; never an event loop
   */
  public PLogPSkill(
      ProbeClient client,
      PLogPMeasurement.Settings settings,
      Duration budget,
      Ticker ticker,
      Executor executor) {
    this.client = client;
    this.settings = settings;
    this.budget = budget;
    this.ticker = ticker;
    this.executor = executor;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String unit() {
    return "us";
  }

  @Override
  public CompletionStage<Reading> measure(InetSocketAddress peer) {
    return CompletableFuture.supplyAsync(() -> run(peer), executor);
  }

  private Reading run(InetSocketAddress peer) {
    try (PLogPConnection c = client.plogp(peer).get(budget.toNanos(), TimeUnit.NANOSECONDS)) {
      ProbePLogPChannel channel = new ProbePLogPChannel(c, ticker, budget.toNanos());
      channel.warmUp(WARM_UP_NANOS);
      PLogPParameters p = new PLogPMeasurement(channel, settings).measure();
      return reading(p, c.bytes());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CompletionException(new IOException("interrupted", e));
    } catch (ExecutionException e) {
      throw new CompletionException(e.getCause());
    } catch (TimeoutException e) {
      throw new CompletionException(new IOException("cannot connect to " + peer, e));
    } catch (UncheckedIOException e) {
      throw new CompletionException(e.getCause());
    }
  }

  /** The reading of measured parameters: L, and the series as extras, in µs. */
  static Reading reading(PLogPParameters p, long bytes) {
    Map<String, Double> extras = new TreeMap<>();
    extras.put(PREFIX + "latency", p.latency() * 1e6);
    for (double size : p.sizes()) {
      long m = (long) size;
      if (m == 0 || Long.bitCount(m) == 1) {
        double atM = (double) m;
        extras.put(PREFIX + "gap.m" + m, p.gap(atM) * 1e6);
        extras.put(PREFIX + "os.m" + m, p.sendOverhead(atM) * 1e6);
        extras.put(PREFIX + "or.m" + m, p.receiveOverhead(atM) * 1e6);
      }
    }
    return new Reading(p.latency() * 1e6, "us", bytes, extras);
  }

  @Override
  public Map<String, Double> series(Reading reading) {
    Map<String, Double> out = new TreeMap<>();
    reading
        .extras()
        .forEach(
            (k, v) -> {
              if (k.startsWith(PREFIX)) {
                out.put(k, v);
              }
            });
    return out;
  }
}
