package org.netweather.forecaster;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.WatchRequest;
import org.netweather.model.shard.ShardSet;
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
 *
 * <p>On a site whose forecasters share the shards, the follower asks only for the shards this
 * forecaster follows ({@link #follow}); a change re-subscribes, from the warm-up window again when
 * shards were added (series already followed skip what they have), and the memory-host's {@code
 * caught_up} message tells {@link CaughtUp} when the stored points of a subscription are all in.
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
  // Null: every shard (no filter). Otherwise the shards asked for; none means no stream.
  private ShardSet shards;
  private boolean warmUp = true;
  private CaughtUp caughtUp = (follower, set) -> {};

  /** Told, on the stream's thread, that a subscription's stored points are all in. */
  interface CaughtUp {
    void caughtUp(MemoryFollower follower, ShardSet subscribed);
  }

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

  /** Sets where {@link CaughtUp} goes; before {@link #start}. */
  synchronized MemoryFollower onCaughtUp(CaughtUp listener) {
    caughtUp = listener;
    return this;
  }

  /**
   * Follows {@code next} shards from now on (null: all): re-subscribes if they differ, from the
   * warm-up window if {@code next} holds a shard not followed before.
   */
  synchronized void follow(ShardSet next, boolean gained) {
    shards = next == null ? null : next.copy();
    warmUp |= gained;
    if (current != null) {
      current.cancel(null);
      current = null;
    }
    start();
  }

  synchronized void start() {
    if (closed) {
      return;
    }
    if (shards != null && shards.isEmpty()) {
      return; // nothing to follow until shards are ours
    }
    long since = newestSeen == 0 || warmUp ? 0 : Math.max(0, newestSeen - RESUME_SLACK_MS);
    if (shards == null) {
      warmUp = false;
    }
    if (current != null) {
      current.cancel(null);
    }
    Context.CancellableContext ctx = Context.current().withCancellation();
    current = ctx;
    ShardSet subscribed = shards;
    WatchRequest.Builder b =
        WatchRequest.newBuilder()
            .addPatterns("*")
            .setSinceMs(since)
            .setBacklogPerSeries(backlogPerSeries);
    if (subscribed != null) {
      b.setShards(subscribed.text());
    }
    WatchRequest req = b.build();
    CaughtUp told = caughtUp;
    ctx.run(
        () ->
            ClientCalls.asyncServerStreamingCall(
                channel.newCall(WatchStream.METHOD, CallOptions.DEFAULT),
                req,
                new StreamObserver<>() {
                  @Override
                  public void onNext(PointBatch batch) {
                    if (current != ctx) {
                      return; // a subscription replaced: its shards may not be ours any more
                    }
                    if (batch.caughtUp()) {
                      // Until then a resumed stream starts from the warm-up window again.
                      synchronized (MemoryFollower.this) {
                        warmUp = false;
                      }
                      told.caughtUp(MemoryFollower.this, subscribed);
                    }
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
                    retry(ctx, "stream failed: " + t.getMessage());
                  }

                  @Override
                  public void onCompleted() {
                    retry(ctx, "stream ended");
                  }
                }));
  }

  private synchronized void restartIfIdle() {
    if (current == null) {
      start();
    }
  }

  private synchronized void retry(Context.CancellableContext ctx, String why) {
    if (closed || current != ctx) {
      return; // closed, or replaced by a new subscription
    }
    current = null;
    log.info("following {}: {}; retrying in {} ms", name, why, backoffMs);
    scheduler.schedule(this::restartIfIdle, backoffMs, TimeUnit.MILLISECONDS);
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
