package org.netweather.forecaster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.netweather.forecaster.ShardOwnership.Peer;
import org.netweather.forecaster.ShardOwnership.Shares;
import org.netweather.model.shard.ShardSet;
import org.netweather.registry.Member;
import org.netweather.registry.Presence;
import org.netweather.registry.Registry;
import org.netweather.registry.RegistryEvent;
import org.netweather.registry.RegistryListener;
import org.netweather.registry.RegistryState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A forecaster's part in the {@value #GROUP} group of a shared registry: it joins under its
 * registration name with its address and the shards it serves ({@code warm}, a shard-set text),
 * feeds every change of the group to {@link ShardOwnership}, and carries out what changes: the
 * memory-host followers follow the new shards, series of shards let go are forgotten, the warm data
 * is published, and watch streams over a moved shard end.
 *
 * <p>All work runs on the daemon's scheduler, one change at a time: registry callbacks only queue a
 * refresh (they must not block).
 */
final class ShardMembership implements ShardGate, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ShardMembership.class);

  /** The registry group of forecasters sharing a site. */
  static final String GROUP = "forecaster";

  private final Registry registry;
  private final String id;
  private String address = "";
  private final ShardOwnership ownership;
  private final MemoryDiscovery discovery;
  private final SeriesForecasts forecasts;
  private final ScheduledExecutorService scheduler;
  private BiConsumer<ShardSet, ShardSet> servingListener = (before, after) -> {};
  private Presence presence;
  private AutoCloseable watch;
  private ScheduledFuture<?> ticker;
  private Shares last = Shares.NONE;
  // Set from LOST until CONNECTED: see refresh().
  private volatile boolean sessionLost;
  private volatile boolean closed;

  ShardMembership(
      Registry registry,
      String id,
      ShardOwnership ownership,
      MemoryDiscovery discovery,
      SeriesForecasts forecasts,
      ScheduledExecutorService scheduler) {
    this.registry = registry;
    this.id = id;
    this.ownership = ownership;
    this.discovery = discovery;
    this.forecasts = forecasts;
    this.scheduler = scheduler;
  }

  /** Told (before, after) whenever the shards served change; set before {@link #start}. */
  synchronized ShardMembership onServingChanged(BiConsumer<ShardSet, ShardSet> listener) {
    servingListener = listener;
    return this;
  }

  /**
   * Joins the group, telling {@code address} ({@code host:port}) to the others, and starts
   * following the shards this forecaster owns.
   */
  synchronized ShardMembership start(String address, long tickMs) {
    this.address = address;
    presence = registry.join(GROUP, id, data(ShardSet.none()));
    watch =
        registry.watch(
            new RegistryListener() {
              @Override
              public void onChange(RegistryEvent event) {
                if (event.area() == RegistryEvent.Area.MEMBER
                    && event.key().startsWith(GROUP + "/")) {
                  submit(ShardMembership.this::refresh);
                }
              }

              @Override
              public void onState(RegistryState state) {
                if (state == RegistryState.LOST) {
                  sessionLost = true;
                  log.warn(
                      "the registry session of {} was lost: its shards go to the other forecasters"
                          + " and it serves none until it is a member again",
                      id);
                } else if (state == RegistryState.CONNECTED) {
                  sessionLost = false;
                }
                submit(ShardMembership.this::refresh);
              }
            });
    refresh();
    ticker = scheduler.scheduleWithFixedDelay(this::tick, tickMs, tickMs, TimeUnit.MILLISECONDS);
    return this;
  }

  /** The memory-hosts have sent all stored points of {@code subscribed}. */
  void warmed(ShardSet subscribed) {
    submit(() -> apply(ownership.warmed(subscribed)));
  }

  @Override
  public boolean sharded() {
    return true;
  }

  @Override
  public boolean serves(int shard) {
    return ownership.shares().serving().contains(shard);
  }

  @Override
  public Optional<Peer> hint(int shard) {
    return ownership.hint(shard);
  }

  /** What this forecaster has now. */
  Shares shares() {
    return ownership.shares();
  }

  private void submit(Runnable task) {
    if (!closed) {
      try {
        scheduler.execute(task);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // Shutting down.
      }
    }
  }

  private synchronized void refresh() {
    if (closed) {
      return;
    }
    List<Peer> peers = new ArrayList<>();
    try {
      for (Member m : registry.members(GROUP)) {
        // A session lost while cut off from ZooKeeper leaves the registry answering from what it
        // last saw, which still lists this forecaster: ZooKeeper has dropped its node and the
        // others take its shards over, so it must serve none of them until it is back.
        if (!(sessionLost && m.id().equals(id))) {
          peers.add(peer(m));
        }
      }
    } catch (RuntimeException e) {
      log.warn("cannot list the forecasters sharing the site: {}", e.getMessage());
      return;
    }
    apply(ownership.members(peers));
  }

  private synchronized void tick() {
    if (!closed) {
      apply(ownership.tick());
    }
  }

  private static Peer peer(Member m) {
    ShardSet warm;
    try {
      warm = ShardSet.parse(m.data().getOrDefault("warm", ""));
    } catch (IllegalArgumentException e) {
      log.warn("forecaster {} publishes a bad warm shard set: {}", m.id(), e.getMessage());
      warm = ShardSet.none();
    }
    return new Peer(m.id(), m.data().getOrDefault("address", ""), warm);
  }

  private synchronized void apply(Shares next) {
    if (closed) {
      return;
    }
    Shares before = last;
    last = next;
    if (!next.following().equals(before.following())) {
      boolean gained = !contains(before.following(), next.following());
      discovery.follow(next.following(), gained);
      if (!contains(next.following(), before.following())) {
        int forgotten = forecasts.retainShards(next.following());
        log.info("{} let go of shards: {} series forgotten", id, forgotten);
      }
    }
    if (!next.serving().equals(before.serving())) {
      try {
        presence.update(data(next.serving()));
      } catch (RuntimeException e) {
        log.warn("cannot publish the shards {} serves: {}", id, e.getMessage());
      }
      servingListener.accept(before.serving(), next.serving());
    }
    if (!next.owned().equals(before.owned())
        || !next.warm().equals(before.warm())
        || !next.serving().equals(before.serving())) {
      log.info(
          "{} owns {} shards ({} warm), serves {}, follows {}, among {} forecasters",
          id,
          next.owned().size(),
          next.warm().size(),
          next.serving().size(),
          next.following().size(),
          ownership.memberIds().size());
    }
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

  private Map<String, String> data(ShardSet warm) {
    return Map.of("address", address, "warm", warm.text());
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (ticker != null) {
      ticker.cancel(false);
    }
    try {
      if (watch != null) {
        watch.close();
      }
    } catch (Exception e) {
      log.debug("closing the registry watch: {}", e.toString());
    }
    if (presence != null) {
      presence.close();
    }
  }
}
