package org.netweather.forecaster;

import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one memory-host's watch stream into {@link SeriesForecasts}. The first subscription
 * asks for every stored raw point, which warms each series' battery up from history; later ones
 * resume a little before the newest point seen, and the batteries skip what they already have.
 * A broken stream is retried with backoff on its own, so a slow or dead memory-host never holds
 * up the others.
 */
final class MemoryFollower implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MemoryFollower.class);
  /** How far before the newest point seen a resumed stream starts, for late arrivals. */
  static final long RESUME_SLACK_MS = 5 * 60_000;
  private static final long MAX_BACKOFF_MS = 30_000;

  private final String name;
  private final MemoryHostGrpc.MemoryHostStub stub;
  private final SeriesForecasts forecasts;
  private final ScheduledExecutorService scheduler;
  private final ForecasterMetrics metrics;
  private volatile long newestSeen;
  private volatile boolean closed;
  private volatile Context.CancellableContext current;
  private long backoffMs = 500;

  MemoryFollower(String name, Channel channel, SeriesForecasts forecasts,
      ScheduledExecutorService scheduler, ForecasterMetrics metrics) {
    this.name = name;
    this.stub = MemoryHostGrpc.newStub(channel);
    this.forecasts = forecasts;
    this.scheduler = scheduler;
    this.metrics = metrics;
  }

  String name() {
    return name;
  }

  synchronized void start() {
    if (closed) {
      return;
    }
    long since = newestSeen == 0 ? 0 : Math.max(0, newestSeen - RESUME_SLACK_MS);
    Context.CancellableContext ctx = Context.current().withCancellation();
    current = ctx;
    ctx.run(() -> stub.watch(WatchRequest.newBuilder().addPatterns("*").setSinceMs(since)
        .build(), new StreamObserver<>() {
          @Override
          public void onNext(WatchResponse r) {
            backoffMs = 500;
            for (SeriesPoints sp : r.getBatchesList()) {
              int n = sp.getPointsCount();
              long[] t = new long[n];
              double[] v = new double[n];
              for (int i = 0; i < n; i++) {
                Measurement m = sp.getPoints(i);
                t[i] = m.getTimestampMs();
                v[i] = m.getValue();
              }
              if (n > 0 && t[n - 1] > newestSeen) {
                newestSeen = t[n - 1];
              }
              metrics.observed(forecasts.observe(sp.getSeries(), t, v, n));
            }
          }

          @Override
          public void onError(Throwable t) {
            retry("stream failed: " + t.getMessage());
          }

          @Override
          public void onCompleted() {
            retry("stream ended");
          }
        }));
  }

  private synchronized void retry(String why) {
    if (closed) {
      return;
    }
    log.info("following {}: {}; retrying in {} ms", name, why, backoffMs);
    scheduler.schedule(this::start, backoffMs, TimeUnit.MILLISECONDS);
    backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (current != null) {
      current.cancel(null);
    }
  }
}
