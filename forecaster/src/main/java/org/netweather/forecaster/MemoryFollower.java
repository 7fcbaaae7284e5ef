package org.netweather.forecaster;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
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
 * forecaster follows ({@link #follow}). Shards gained (and nothing lost) are warmed up on a stream
 * of their own, so the series already followed are not sent again and the new ones are warm within
 * seconds; any other change, or a broken stream, re-subscribes everything on one stream (from the
 * warm-up window while a warm-up is unfinished). The memory-host's {@code caught_up} message tells
 * {@link CaughtUp} when the stored points of every stream are all in.
 */
final class MemoryFollower implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MemoryFollower.class);

  /** How far before the newest point seen a resumed stream starts, for late arrivals. */
  static final long RESUME_SLACK_MS = 5 * 60_000;

  // Short, so that a restarted memory-host is followed again within seconds.
  private static final long MAX_BACKOFF_MS = 4_000;

  /** Streams at most per memory-host: gains beyond it re-subscribe everything on one. */
  private static final int MAX_STREAMS = 4;

  private final String name;
  private final Channel channel;
  private final SeriesForecasts forecasts;
  private final int backlogPerSeries;
  private final ScheduledExecutorService scheduler;
  private final ForecasterMetrics metrics;
  private volatile long newestSeen;
  private volatile boolean closed;
  private long backoffMs = 500;
  // Guarded by this. Null: every shard (no filter). Otherwise the shards followed; none means no
  // stream.
  private ShardSet shards;
  private boolean warmUp = true;
  private final List<Sub> subs = new ArrayList<>();
  private CaughtUp caughtUp = (follower, set) -> {};

  /** Told, on the stream's thread, that the stored points of {@code subscribed} are all in. */
  interface CaughtUp {
    void caughtUp(MemoryFollower follower, ShardSet subscribed);
  }

  /** One watch stream: its shards (null: all) and whether its stored points are all in. */
  private static final class Sub {
    final Context.CancellableContext ctx;
    boolean live = true; // guarded by the Sub
    boolean caught;

    Sub(Context.CancellableContext ctx, boolean caught) {
      this.ctx = ctx;
      this.caught = caught;
    }

    /** Stops it; returns once no batch of it is being applied. */
    void cancel() {
      synchronized (this) {
        live = false;
      }
      ctx.cancel(null);
    }
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
   * Follows {@code next} shards from now on; {@code gained} if it holds a shard not followed
   * before, whose series are warmed up from the stored points.
   */
  synchronized void follow(ShardSet next, boolean gained) {
    ShardSet before = shards;
    shards = next.copy();
    if (gained
        && before != null
        && !subs.isEmpty()
        && subs.size() < MAX_STREAMS
        && contains(next, before)) {
      // Only gains: the streams already open go on; the new shards get one of their own.
      ShardSet added = ShardSet.none();
      next.forEach(
          s -> {
            if (!before.contains(s)) {
              added.add(s);
            }
          });
      open(added, 0);
      return;
    }
    warmUp |= gained;
    restart();
  }

  synchronized void start() {
    restart();
  }

  /** One stream for everything followed, from the warm-up window or resuming. */
  private void restart() {
    cancelAll();
    if (closed || (shards != null && shards.isEmpty())) {
      return; // nothing to follow until shards are ours
    }
    long since = newestSeen == 0 || warmUp ? 0 : Math.max(0, newestSeen - RESUME_SLACK_MS);
    if (shards == null) {
      warmUp = false;
    }
    open(shards, since);
  }

  private void open(ShardSet subscribed, long since) {
    Context.CancellableContext ctx = Context.current().withCancellation();
    // An unfiltered watch sends no caught_up: nothing waits for one.
    Sub sub = new Sub(ctx, subscribed == null);
    subs.add(sub);
    WatchRequest.Builder b =
        WatchRequest.newBuilder()
            .addPatterns("*")
            .setSinceMs(since)
            .setBacklogPerSeries(backlogPerSeries);
    if (subscribed != null) {
      b.setShards(subscribed.text());
    }
    WatchRequest req = b.build();
    ctx.run(
        () ->
            ClientCalls.asyncServerStreamingCall(
                channel.newCall(WatchStream.METHOD, CallOptions.DEFAULT),
                req,
                new StreamObserver<>() {
                  @Override
                  public void onNext(PointBatch batch) {
                    // Under the stream's lock, so that once it is cancelled no batch of it is
                    // applied any more: the series of shards let go stay forgotten.
                    synchronized (sub) {
                      if (!sub.live) {
                        return; // replaced: its shards may not be ours any more
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
                    if (batch.caughtUp()) {
                      caughtUp(sub);
                    }
                  }

                  @Override
                  public void onError(Throwable t) {
                    retry(sub, "stream failed: " + t.getMessage());
                  }

                  @Override
                  public void onCompleted() {
                    retry(sub, "stream ended");
                  }
                }));
  }

  private void caughtUp(Sub sub) {
    ShardSet all;
    CaughtUp told;
    synchronized (this) {
      if (!subs.contains(sub)) {
        return; // cancelled
      }
      sub.caught = true;
      for (Sub other : subs) {
        if (!other.caught) {
          return;
        }
      }
      // Everything followed is warm: a resumed stream need not start from the window again.
      warmUp = false;
      all = shards.copy();
      told = caughtUp;
    }
    told.caughtUp(this, all);
  }

  private void cancelAll() {
    for (Sub sub : subs) {
      if (!sub.caught) {
        warmUp = true; // its warm-up was cut short: the next stream starts from the window
      }
      sub.cancel();
    }
    subs.clear();
  }

  private synchronized void restartIfIdle() {
    if (subs.isEmpty()) {
      restart();
    }
  }

  private synchronized void retry(Sub sub, String why) {
    if (closed || !subs.contains(sub)) {
      return; // closed, or replaced by a new subscription
    }
    cancelAll();
    log.info("following {}: {}; retrying in {} ms", name, why, backoffMs);
    scheduler.schedule(this::restartIfIdle, backoffMs, TimeUnit.MILLISECONDS);
    backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
  }

  /** Whether {@code outer} holds every shard of {@code inner}. */
  private static boolean contains(ShardSet outer, ShardSet inner) {
    boolean[] all = {true};
    inner.forEach(
        s -> {
          if (!outer.contains(s)) {
            all[0] = false;
          }
        });
    return all[0];
  }

  @Override
  public synchronized void close() {
    closed = true;
    cancelAll();
  }
}
