package org.netweather.forecaster;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.WatchRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one memory-host's watch stream into {@link SeriesForecasts}, a decoded {@link PointBatch}
 * per message. Every subscription asks for at most {@link
 * org.netweather.forecaster.battery.BatteryLayout#warmUpPoints} stored points per series: the first
 * warms each series' battery up from its recent history (not the whole of it, which would make a
 * restart cost as much as everything ever stored), later ones resume a little before the newest
 * point seen and the batteries skip what they already have. Series the memory-host deletes are
 * forgotten. A broken stream is retried with backoff on its own, so a slow or dead memory-host
 * never holds up the others.
 */
final class MemoryFollower implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MemoryFollower.class);

  /** How far before the newest point seen a resumed stream starts, for late arrivals. */
  static final long RESUME_SLACK_MS = 5 * 60_000;

  // Short, so that a restarted memory-host is followed again within seconds.
  private static final long MAX_BACKOFF_MS = 4_000;

  private final String name;
  private final Channel channel;
  private final SeriesForecasts forecasts;
  private final int backlogPerSeries;
  private final ScheduledExecutorService scheduler;
  private final ForecasterMetrics metrics;
  private volatile long newestSeen;
  private volatile boolean closed;
  private volatile Context.CancellableContext current;
  private long backoffMs = 500;

  MemoryFollower(
      String name,
      Channel channel,
      SeriesForecasts forecasts,
      int backlogPerSeries,
      ScheduledExecutorService scheduler,
      ForecasterMetrics metrics) {
    this.name = name;
    this.channel = channel;
    this.forecasts = forecasts;
    this.backlogPerSeries = backlogPerSeries;
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
    WatchRequest req =
        WatchRequest.newBuilder()
            .addPatterns("*")
            .setSinceMs(since)
            .setBacklogPerSeries(backlogPerSeries)
            .build();
    ctx.run(
        () ->
            ClientCalls.asyncServerStreamingCall(
                channel.newCall(WatchStream.METHOD, CallOptions.DEFAULT),
                req,
                new StreamObserver<>() {
                  @Override
                  public void onNext(PointBatch batch) {
                    backoffMs = 500;
                    long[] t = batch.times();
                    long newest = newestSeen;
                    for (int i = 0; i < batch.points(); i++) {
                      newest = Math.max(newest, t[i]);
                    }
                    newestSeen = newest;
                    metrics.observed(forecasts.apply(batch));
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
