package org.netweather.forecaster;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.model.shard.ShardSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one {@link MemoryFollower} per memory-host registered with the nameserver, polling the
 * registry; a memory-host that moves to a new address gets a new follower. A follower stays while
 * its memory-host is briefly absent, so its series resume when it returns.
 *
 * <p>On a site whose forecasters share the shards, every follower follows the shards {@link
 * #follow} names, and {@link #onWarm} is told once every follower has sent all stored points of
 * them.
 */
final class MemoryDiscovery implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MemoryDiscovery.class);

  private final NameserverGrpc.NameserverBlockingStub nameserver;
  private final Function<String, ManagedChannel> channels;
  private final SeriesForecasts forecasts;
  private final ScheduledExecutorService scheduler;
  private final ForecasterMetrics metrics;
  private final int backlogPerSeries;
  // Changed under this object's lock; concurrent so that a scrape can count it without waiting
  // for a poll's nameserver call.
  private final Map<String, Followed> followed = new ConcurrentHashMap<>();
  private ScheduledFuture<?> task;
  // Null: every shard. Guarded by this.
  private ShardSet shards;
  private final Map<MemoryFollower, ShardSet> caughtUp = new java.util.HashMap<>();
  private java.util.function.Consumer<ShardSet> onWarm = set -> {};

  private record Followed(String address, ManagedChannel channel, MemoryFollower follower) {}

  MemoryDiscovery(
      io.grpc.Channel nameserver,
      Function<String, ManagedChannel> channels,
      SeriesForecasts forecasts,
      int backlogPerSeries,
      ScheduledExecutorService scheduler,
      ForecasterMetrics metrics) {
    this.backlogPerSeries = backlogPerSeries;
    this.nameserver = NameserverGrpc.newBlockingStub(nameserver);
    this.channels = channels;
    this.forecasts = forecasts;
    this.scheduler = scheduler;
    this.metrics = metrics;
  }

  /** Follows only {@code initial} shards (none: nothing until {@link #follow}); before start. */
  synchronized MemoryDiscovery sharded(
      ShardSet initial, java.util.function.Consumer<ShardSet> warm) {
    shards = initial.copy();
    onWarm = warm;
    return this;
  }

  /**
   * Follows {@code next} shards from now on; {@code gained} if it holds one not followed before,
   * whose series must be warmed up from the stored points.
   */
  synchronized void follow(ShardSet next, boolean gained) {
    shards = next.copy();
    caughtUp.clear();
    for (Followed f : followed.values()) {
      f.follower().follow(shards, gained);
    }
  }

  private synchronized void caughtUp(MemoryFollower follower, ShardSet subscribed) {
    if (shards == null || !subscribed.equals(shards)) {
      return; // an older subscription
    }
    caughtUp.put(follower, subscribed);
    for (Followed f : followed.values()) {
      if (!caughtUp.containsKey(f.follower())) {
        return;
      }
    }
    onWarm.accept(subscribed.copy());
  }

  synchronized MemoryDiscovery start(long periodMs) {
    task = scheduler.scheduleWithFixedDelay(this::poll, 0, periodMs, TimeUnit.MILLISECONDS);
    return this;
  }

  synchronized void poll() {
    try {
      for (Registration r :
          nameserver
              .withDeadlineAfter(5, TimeUnit.SECONDS)
              .search(SearchRequest.newBuilder().setFilter("(kind=memory)").build())
              .getRegistrationsList()) {
        Followed f = followed.get(r.getName());
        if (f != null && f.address().equals(r.getAddress())) {
          continue;
        }
        if (f != null) {
          stop(f);
        }
        ManagedChannel ch = channels.apply(r.getAddress());
        MemoryFollower follower =
            new MemoryFollower(r.getName(), ch, forecasts, backlogPerSeries, scheduler, metrics)
                .onCaughtUp(this::caughtUp);
        followed.put(r.getName(), new Followed(r.getAddress(), ch, follower));
        log.info("following memory-host {} at {}", r.getName(), r.getAddress());
        if (shards != null) {
          follower.follow(shards, true);
        } else {
          follower.start();
        }
      }
    } catch (StatusRuntimeException e) {
      log.debug("nameserver unreachable: {}", e.getStatus());
    }
  }

  /** Memory-hosts followed now. */
  int followedCount() {
    return followed.size();
  }

  private void stop(Followed f) {
    caughtUp.remove(f.follower());
    f.follower().close();
    f.channel().shutdownNow();
  }

  @Override
  public synchronized void close() {
    if (task != null) {
      task.cancel(false);
    }
    followed.values().forEach(this::stop);
    followed.clear();
  }
}
