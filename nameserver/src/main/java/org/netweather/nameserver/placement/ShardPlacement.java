package org.netweather.nameserver.placement;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;
import org.netweather.model.shard.Rendezvous;

/**
 * Where each shard's measurements are stored, and when that changes: the rules, free of gRPC and
 * ZooKeeper, on an injected clock.
 *
 * <ul>
 *   <li>A shard with no placement gets the Rendezvous top choice among the live memory-hosts.
 *   <li>A placement is sticky: it changes by an operator's move, or once its memory-host has been
 *       gone for longer than {@code replaceAfter} (never on a blip: a memory-host whose ZooKeeper
 *       session lives is never gone), and then to the highest-ranked live memory-host not already
 *       holding the shard, so one memory-host's shards spread over all survivors.
 * </ul>
 *
 * Each method takes a part's lists and returns the changed lists, or the very same list when
 * nothing changes (so the caller writes nothing). Every nameserver computes the same answer from
 * the same membership; which one writes first is decided by the registry's versioned write.
 *
 * <p>Absences are timed by this process from when it first saw a placed memory-host missing: a
 * nameserver that restarts starts again from then, which delays a replacement but never hastens it.
 *
 * <p>Thread-safety: the absence record is guarded by this object; the rest is stateless.
 */
public final class ShardPlacement {
  private final Clock clock;
  private final Duration replaceAfter;

  /** Memory-hosts seen placed or live that are not live now, with when they were first missed. */
  private final Map<String, Instant> goneSince = new HashMap<>();

  private final Set<String> live = new HashSet<>();

  public ShardPlacement(Clock clock, Duration replaceAfter) {
    if (replaceAfter.isNegative()) {
      throw new IllegalArgumentException("replaceAfter " + replaceAfter + " is negative");
    }
    this.clock = clock;
    this.replaceAfter = replaceAfter;
  }

  public Duration replaceAfter() {
    return replaceAfter;
  }

  /**
   * Records which memory-hosts are live now and which are named by the placement: one placed but
   * not live is gone from now on (unless it already was), one live is not gone.
   */
  public synchronized void observe(Collection<String> liveIds, Collection<String> placedIds) {
    Instant now = clock.instant();
    Set<String> known = new HashSet<>(live);
    known.addAll(placedIds);
    known.addAll(goneSince.keySet());
    live.clear();
    live.addAll(liveIds);
    for (String id : known) {
      if (!live.contains(id)) {
        goneSince.putIfAbsent(id, now);
      }
    }
    goneSince.keySet().removeAll(live);
    // Forget what is neither placed nor live any more: nothing to replace, nothing to show.
    goneSince.keySet().retainAll(new HashSet<>(placedIds));
  }

  /** When {@code id} was first seen missing, if it is missing now. */
  public synchronized Optional<Instant> goneSince(String id) {
    return Optional.ofNullable(goneSince.get(id));
  }

  /** Whether {@code id} has been gone longer than {@code replaceAfter}. */
  synchronized boolean replaceable(String id) {
    Instant since = goneSince.get(id);
    return since != null && Duration.between(since, clock.instant()).compareTo(replaceAfter) > 0;
  }

  /**
   * Places every shard of the part that has no memory-host on the Rendezvous top choice among
   * {@code liveIds}.
   */
  public List<List<String>> fill(int part, List<List<String>> shards, Collection<String> liveIds) {
    if (liveIds.isEmpty()) {
      return shards;
    }
    List<List<String>> out = null;
    for (int i = 0; i < shards.size(); i++) {
      if (shards.get(i).isEmpty()) {
        out = out == null ? new ArrayList<>(shards) : out;
        int shard = part * PlacementPart.SHARDS + i;
        out.set(i, List.of(Rendezvous.owner(shard, liveIds).orElseThrow()));
      }
    }
    return out == null ? shards : List.copyOf(out);
  }

  /**
   * Replaces, in every shard of the part, each memory-host gone longer than {@code replaceAfter}
   * with the highest-ranked live memory-host not already holding the shard. A shard with no such
   * memory-host keeps its placement.
   */
  public List<List<String>> replace(
      int part, List<List<String>> shards, Collection<String> liveIds) {
    List<List<String>> out = null;
    for (int i = 0; i < shards.size(); i++) {
      List<String> hosts = shards.get(i);
      List<String> next = null;
      for (int j = 0; j < hosts.size(); j++) {
        if (!replaceable(hosts.get(j))) {
          continue;
        }
        List<String> candidates = new ArrayList<>(liveIds);
        candidates.removeAll(next == null ? hosts : next);
        if (candidates.isEmpty()) {
          continue;
        }
        next = next == null ? new ArrayList<>(hosts) : next;
        next.set(j, Rendezvous.owner(part * PlacementPart.SHARDS + i, candidates).orElseThrow());
      }
      if (next != null) {
        out = out == null ? new ArrayList<>(shards) : out;
        out.set(i, List.copyOf(next));
      }
    }
    return out == null ? shards : List.copyOf(out);
  }

  /**
   * Moves the shards of the part that {@code which} selects to {@code target}: its first
   * memory-host becomes {@code target} (and {@code target} leaves any other place in its list).
   */
  public List<List<String>> move(
      int part, List<List<String>> shards, IntPredicate which, String target) {
    List<List<String>> out = null;
    for (int i = 0; i < shards.size(); i++) {
      int shard = part * PlacementPart.SHARDS + i;
      List<String> hosts = shards.get(i);
      if (!which.test(shard) || (!hosts.isEmpty() && hosts.get(0).equals(target))) {
        continue;
      }
      List<String> next = new ArrayList<>(hosts);
      next.remove(target);
      if (next.isEmpty()) {
        next.add(target);
      } else {
        next.set(0, target);
      }
      out = out == null ? new ArrayList<>(shards) : out;
      out.set(i, List.copyOf(next));
    }
    return out == null ? shards : List.copyOf(out);
  }
}
