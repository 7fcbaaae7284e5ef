package org.netweather.benchmarks.site;

import io.grpc.stub.StreamObserver;
import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.client.NetWeatherClient;
import org.netweather.client.Subscription;

/**
 * Append-to-forecast delay of a sample of series: the time from the memory-host's ack of a
 * measurement to the forecaster serving (on its WatchForecasts stream) a forecast whose last
 * measurement is that one or a later one. A forecast seen before the ack counts as no delay. The
 * stream is re-opened 250 ms after it ends (the forecaster restarts in one phase).
 */
final class ForecastDelay {
  private record Pending(long ts, long ackNanos, Phase phase) {}

  private static final class Followed {
    final ArrayDeque<Pending> pending = new ArrayDeque<>();
    long seenTs;
    long seenAfterMark;
  }

  private final List<String> names;
  private final Map<Integer, Followed> followed = new HashMap<>();
  private final Map<String, Followed> byName = new HashMap<>();
  private final EnumMap<Phase, LatencyHistogram> delays = new EnumMap<>(Phase.class);
  private final LongSupplier nanos;
  private Phase phase = Phase.FILL;
  private boolean on;
  private long updates;
  private long markNanos = Long.MAX_VALUE;
  private long firstUpdateAfterMark;
  private volatile Subscription subscription;
  private volatile boolean closed;

  ForecastDelay(SitePlan plan, List<Integer> sample, LongSupplier nanos) {
    this.nanos = nanos;
    this.names = sample.stream().map(i -> plan.series().get(i)).toList();
    for (int i : sample) {
      Followed f = new Followed();
      followed.put(i, f);
      byName.put(plan.series().get(i), f);
    }
  }

  /** Follows the sample from now on, re-subscribing whenever the stream ends. */
  void start(NetWeatherClient client, ScheduledExecutorService scheduler) {
    synchronized (this) {
      on = true;
    }
    subscribe(client, scheduler);
  }

  private void subscribe(NetWeatherClient client, ScheduledExecutorService scheduler) {
    if (closed) {
      return;
    }
    Runnable again =
        () -> scheduler.schedule(() -> subscribe(client, scheduler), 250, TimeUnit.MILLISECONDS);
    try {
      subscription =
          client.watchForecasts(
              names,
              Criterion.CRITERION_MSE,
              new StreamObserver<ForecastUpdate>() {
                @Override
                public void onNext(ForecastUpdate u) {
                  seen(
                      u.getForecast().getSeries(),
                      u.getForecast().getLast().getTimestampMs(),
                      nanos.getAsLong());
                }

                @Override
                public void onError(Throwable t) {
                  again.run();
                }

                @Override
                public void onCompleted() {
                  again.run();
                }
              });
    } catch (RuntimeException e) {
      again.run(); // no forecaster registered yet
    }
  }

  void close() {
    closed = true;
    Subscription s = subscription;
    if (s != null) {
      s.close();
    }
  }

  synchronized void startPhase(Phase p) {
    phase = p;
  }

  /** From now on, {@link #firstUpdateAfterMark()} is the first forecast after this instant. */
  synchronized void mark(long atNanos) {
    markNanos = atNanos;
    firstUpdateAfterMark = 0;
    for (Followed f : followed.values()) {
      f.seenAfterMark = 0;
    }
  }

  /**
   * When every followed series had been forecast again after the mark (the last of their first
   * updates), System.nanoTime(); 0 while one has not.
   */
  synchronized long everyUpdatedAfterMark() {
    long last = 0;
    for (Followed f : followed.values()) {
      if (f.seenAfterMark == 0) {
        return 0;
      }
      last = Math.max(last, f.seenAfterMark);
    }
    return last;
  }

  synchronized long firstUpdateAfterMark() {
    return firstUpdateAfterMark;
  }

  synchronized void acked(int series, long ts, long now) {
    Followed f = followed.get(series);
    if (f == null || !on) {
      return;
    }
    if (ts <= f.seenTs) {
      histogram(phase).record(0);
    } else {
      f.pending.add(new Pending(ts, now, phase));
    }
  }

  private synchronized void seen(String series, long lastTs, long now) {
    updates++;
    if (firstUpdateAfterMark == 0 && now > markNanos) {
      firstUpdateAfterMark = now;
    }
    Followed f = byName.get(series);
    if (f == null) {
      return;
    }
    if (f.seenAfterMark == 0 && now > markNanos) {
      f.seenAfterMark = now;
    }
    f.seenTs = Math.max(f.seenTs, lastTs);
    while (!f.pending.isEmpty() && f.pending.peek().ts <= f.seenTs) {
      Pending p = f.pending.poll();
      histogram(p.phase).record((now - p.ackNanos) / 1000);
    }
  }

  private LatencyHistogram histogram(Phase p) {
    return delays.computeIfAbsent(p, k -> new LatencyHistogram());
  }

  synchronized Map<Phase, LatencyHistogram> delays() {
    return new EnumMap<>(delays);
  }

  /** How long the oldest acknowledged measurement no forecast has shown yet has waited. */
  synchronized long oldestUnseenNanos(long now) {
    long oldest = now;
    for (Followed f : followed.values()) {
      if (!f.pending.isEmpty()) {
        oldest = Math.min(oldest, f.pending.peek().ackNanos);
      }
    }
    return now - oldest;
  }

  /** Acknowledged measurements of the sample that no forecast has shown yet. */
  synchronized long unseen() {
    return followed.values().stream().mapToLong(f -> f.pending.size()).sum();
  }

  synchronized long updates() {
    return updates;
  }

  int size() {
    return names.size();
  }
}
