package org.netweather.forecaster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.netweather.model.shard.Rendezvous;
import org.netweather.model.shard.ShardSet;
import org.netweather.model.shard.Shards;

/**
 * Which shards this forecaster owns, has warm and serves, from the live members of the forecaster
 * group: members in, shares out. No coordinator: every forecaster computes the owner of each shard
 * by {@link Rendezvous} over the same member ids, so when a member leaves only its shards move,
 * spread over all survivors (docs/sharding.md).
 *
 * <p>A shard changes hands in two phases, so that some forecaster serves it throughout:
 *
 * <ol>
 *   <li>The new owner follows it and warms it up from the memory-hosts; until {@link #warmed} says
 *       so (or {@link #warmBoundMs} passes) it does not serve it.
 *   <li>Once warm it serves it and lists it in its member data; the old owner, which went on
 *       following and serving the shard meanwhile, then drops it, or after {@link #handoffBoundMs}
 *       if the new owner never says so.
 * </ol>
 *
 * A member missing for less than {@link #settleMs} moves nothing: a forecaster restarted under the
 * same id takes its old node over, and the node is gone only for the instant between the old
 * session's end and its re-creation. A forecaster that is not itself listed (its session expired)
 * serves nothing until it is listed again.
 *
 * <p>Thread-safety: changes are synchronized; {@link #shares()} is a lock-free read of the last
 * immutable snapshot, for the serving path.
 */
final class ShardOwnership {
  /** A live member as its registry data says: address ({@code host:port}) and warm shards. */
  record Peer(String id, String address, ShardSet warm) {}

  /**
   * What this forecaster has now. Never changed once published.
   *
   * @param owned shards whose rendezvous owner it is, warm or warming
   * @param warm owned shards it has warm
   * @param serving shards it answers for: warm ones and those it hands off but still has
   * @param following shards it follows: owned and handed off
   */
  record Shares(ShardSet owned, ShardSet warm, ShardSet serving, ShardSet following) {
    static final Shares NONE =
        new Shares(ShardSet.none(), ShardSet.none(), ShardSet.none(), ShardSet.none());
  }

  private final String self;
  private final LongSupplier clock;
  private final long settleMs;
  private final long handoffBoundMs;
  private final long warmBoundMs;

  private final Map<String, Peer> live = new TreeMap<>();
  private final Map<String, Peer> missing = new TreeMap<>();
  private final Map<String, Long> missingSince = new HashMap<>();
  private final ShardSet warm = ShardSet.none();
  private final Map<Integer, Long> warming = new TreeMap<>();
  private final Map<Integer, Long> handedOff = new TreeMap<>();
  private List<String> ids = List.of();
  private volatile Shares shares = Shares.NONE;

  /**
   * @param self this forecaster's member id (its registration name)
   * @param clock milliseconds, for the bounds below
   * @param settleMs how long a member may be missing before its shards move
   * @param handoffBoundMs how long a shard handed off is kept for a new owner that never says it is
   *     warm
   * @param warmBoundMs how long a shard taken over may stay unwarmed (a memory-host that never
   *     catches up) before it is served anyway
   */
  ShardOwnership(
      String self, LongSupplier clock, long settleMs, long handoffBoundMs, long warmBoundMs) {
    this.self = self;
    this.clock = clock;
    this.settleMs = settleMs;
    this.handoffBoundMs = handoffBoundMs;
    this.warmBoundMs = warmBoundMs;
  }

  /** The last snapshot; lock-free. */
  Shares shares() {
    return shares;
  }

  /** The live members now (self included when listed); returns the new shares. */
  synchronized Shares members(Collection<Peer> peers) {
    long now = clock.getAsLong();
    Map<String, Peer> next = new TreeMap<>();
    for (Peer p : peers) {
      next.put(p.id(), p);
    }
    for (Peer gone : live.values()) {
      if (!next.containsKey(gone.id())) {
        missing.put(gone.id(), gone);
        missingSince.putIfAbsent(gone.id(), now);
      }
    }
    for (String id : next.keySet()) {
      missing.remove(id);
      missingSince.remove(id);
    }
    live.clear();
    live.putAll(next);
    return recompute(now);
  }

  /**
   * The memory-hosts have sent everything stored for {@code subscribed}: the shards of it that were
   * warming are warm now.
   */
  synchronized Shares warmed(ShardSet subscribed) {
    for (var it = warming.keySet().iterator(); it.hasNext(); ) {
      int s = it.next();
      if (subscribed.contains(s)) {
        warm.add(s);
        it.remove();
      }
    }
    return recompute(clock.getAsLong());
  }

  /** Applies the bounds as time passes; returns the new shares. */
  synchronized Shares tick() {
    return recompute(clock.getAsLong());
  }

  /**
   * Who serves a shard this forecaster does not: the rendezvous owner if it has it warm, else
   * another member that has it warm (the old owner during a handoff), else the owner to be, else
   * nobody known.
   */
  synchronized Optional<Peer> hint(int shard) {
    Optional<String> owner = Rendezvous.owner(shard, ids);
    Peer ownerPeer = owner.filter(o -> !o.equals(self)).map(live::get).orElse(null);
    if (ownerPeer != null && ownerPeer.warm().contains(shard)) {
      return Optional.of(ownerPeer);
    }
    for (Peer p : live.values()) {
      if (!p.id().equals(self) && p.warm().contains(shard)) {
        return Optional.of(p);
      }
    }
    return Optional.ofNullable(ownerPeer);
  }

  /** Live member ids counted now (the settling ones included), sorted. */
  synchronized List<String> memberIds() {
    return ids;
  }

  private Shares recompute(long now) {
    missingSince
        .entrySet()
        .removeIf(
            e -> {
              boolean expired = now - e.getValue() >= settleMs;
              if (expired) {
                missing.remove(e.getKey());
              }
              return expired;
            });
    List<String> counted = new ArrayList<>(live.keySet());
    counted.addAll(missing.keySet());
    counted.sort(null);
    ids = List.copyOf(counted);

    ShardSet owned = ShardSet.none();
    if (ids.contains(self)) {
      for (int s = 0; s < Shards.COUNT; s++) {
        if (Rendezvous.owner(s, ids).orElseThrow().equals(self)) {
          owned.add(s);
        }
      }
    } else {
      // Not listed: our session ended and the others have taken our shards over.
      handedOff.clear();
    }
    for (int s = 0; s < Shards.COUNT; s++) {
      boolean mine = owned.contains(s);
      if (!mine && warm.contains(s)) {
        warm.remove(s);
        if (ids.contains(self)) {
          handedOff.put(s, now);
        }
      } else if (!mine) {
        warming.remove(s);
      } else if (!warm.contains(s)) {
        if (handedOff.remove(s) != null) {
          warm.add(s); // came back before we let go of it: still warm
        } else {
          warming.putIfAbsent(s, now);
        }
      }
    }
    warming
        .entrySet()
        .removeIf(
            e -> {
              boolean overdue = now - e.getValue() >= warmBoundMs;
              if (overdue) {
                warm.add(e.getKey());
              }
              return overdue;
            });
    handedOff
        .entrySet()
        .removeIf(e -> now - e.getValue() >= handoffBoundMs || warmAtOwner(e.getKey()));

    ShardSet serving = warm.copy();
    ShardSet following = owned.copy();
    for (int s : handedOff.keySet()) {
      serving.add(s);
      following.add(s);
    }
    Shares next = new Shares(owned, warm.copy(), serving, following);
    shares = next;
    return next;
  }

  private boolean warmAtOwner(int shard) {
    Optional<String> owner = Rendezvous.owner(shard, ids);
    if (owner.isEmpty() || owner.get().equals(self)) {
      return false;
    }
    Peer p = live.get(owner.get());
    return p != null && p.warm().contains(shard);
  }
}
