package org.netweather.nameserver.placement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.netweather.api.v1.GetPlacementResponse;
import org.netweather.api.v1.MemoryHostState;
import org.netweather.api.v1.PlacedShard;
import org.netweather.api.v1.PlacementMemoryHost;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.model.SeriesName;
import org.netweather.model.shard.Shards;
import org.netweather.registry.Member;
import org.netweather.registry.Registry;
import org.netweather.registry.RegistryEvent;
import org.netweather.registry.RegistryException;
import org.netweather.registry.RegistryListener;
import org.netweather.registry.RegistryState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nameserver's placement under the ZooKeeper registry: answers AssignSeries from the placement
 * of each series' shard (nothing per series is stored), shows and moves shards, and keeps the
 * placement whole ({@link #maintain}: new shards placed, shards of a memory-host gone too long
 * replaced). Every nameserver of a site does the same from the same registry; the versioned writes
 * of {@link PlacementStore} decide between them.
 *
 * <p>Memory-hosts are the live members of the registry group {@value #GROUP}, each with its
 * registration name as id and its {@code address}.
 */
public final class Placements implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Placements.class);
  public static final String GROUP = "memory";

  /** As the series directory's AssignSeries. */
  static final int MAX_SERIES_PER_CALL = 10_000;

  /**
   * How soon a sensor asks again where a series goes, so that a move reaches it: about its
   * heartbeat, which keeps the nameservers' cost per sensor the same order.
   */
  public static final Duration RECHECK_AFTER = Duration.ofSeconds(60);

  private final Registry registry;
  private final ShardPlacement rules;
  private final PlacementStore store;
  private final List<AutoCloseable> followers = new ArrayList<>();

  /** One fill at a time in this process: sensors starting together would only race each other. */
  private final Object placing = new Object();

  private final Object maintaining = new Object();

  private volatile Map<String, String> liveCopy;
  private final AtomicLong liveGeneration = new AtomicLong();
  private final AutoCloseable membersWatch;

  public Placements(Registry registry, ShardPlacement rules) {
    this.registry = registry;
    this.rules = rules;
    this.store = new PlacementStore(registry);
    this.membersWatch =
        registry.watch(
            new RegistryListener() {
              @Override
              public void onChange(RegistryEvent e) {
                if (e.area() == RegistryEvent.Area.MEMBER && e.key().startsWith(GROUP + "/")) {
                  liveGeneration.incrementAndGet();
                  liveCopy = null;
                }
              }

              @Override
              public void onState(RegistryState state) {
                // Read afresh after a reconnect: events may have been missed meanwhile.
                liveGeneration.incrementAndGet();
                liveCopy = null;
                store.invalidateAll();
              }
            });
  }

  /**
   * Runs {@link #maintain} on {@code scheduler} every {@code period} and whenever a memory-host
   * joins or leaves, until closed.
   */
  public synchronized Placements follow(ScheduledExecutorService scheduler, Duration period) {
    ScheduledFuture<?> periodic =
        scheduler.scheduleWithFixedDelay(
            this::maintain, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    followers.add(() -> periodic.cancel(false));
    followers.add(
        registry.watch(
            new RegistryListener() {
              @Override
              public void onChange(RegistryEvent e) {
                if (e.area() == RegistryEvent.Area.MEMBER && e.key().startsWith(GROUP + "/")) {
                  try {
                    scheduler.execute(Placements.this::maintain);
                  } catch (RejectedExecutionException stopping) {
                    // the nameserver is stopping
                  }
                }
              }
            }));
    return this;
  }

  /**
   * Live memory-hosts: registration name to address, from a copy a membership event invalidates
   * (AssignSeries is asked about once a minute per sensor; the members change rarely).
   */
  Map<String, String> live() {
    Map<String, String> now = liveCopy;
    if (now == null) {
      long g = liveGeneration.get();
      Map<String, String> read = new TreeMap<>();
      for (Member m : registry.members(GROUP)) {
        read.put(m.id(), m.data().getOrDefault("address", ""));
      }
      now = Collections.unmodifiableMap(read);
      if (liveGeneration.get() == g) {
        liveCopy = now;
      }
    }
    return now;
  }

  /**
   * Where each series goes: the first memory-host of its shard's placement, placing the shard's
   * part first if it has none.
   *
   * @throws IllegalStateException if a shard has no placement and no memory-host is live
   */
  public List<SeriesAssignment> assign(List<String> series) {
    if (series.isEmpty()) {
      throw new IllegalArgumentException("series is empty");
    }
    if (series.size() > MAX_SERIES_PER_CALL) {
      throw new IllegalArgumentException(
          "series has " + series.size() + " names; at most " + MAX_SERIES_PER_CALL + " per call");
    }
    Map<String, String> live = null;
    List<SeriesAssignment> out = new ArrayList<>(series.size());
    for (String s : series) {
      int shard = Shards.of(SeriesName.parse(s));
      int part = PlacementPart.partOf(shard);
      List<String> hosts = store.read(part).hosts(shard);
      if (live == null) {
        live = live();
      }
      if (hosts.isEmpty()) {
        hosts = place(part, live.keySet()).hosts(shard);
        if (hosts.isEmpty()) {
          throw new IllegalStateException(
              "no memory-host is live in the registry to store "
                  + s
                  + " (shard "
                  + shard
                  + "): a memory-host joins when its registry setting names this ZooKeeper"
                  + " ensemble and path");
        }
      }
      String host = hosts.get(0);
      out.add(
          SeriesAssignment.newBuilder()
              .setSeries(s)
              .setMemoryHost(host)
              .setAddress(live.getOrDefault(host, ""))
              .setRecheckAfterMs(RECHECK_AFTER.toMillis())
              .build());
    }
    return out;
  }

  /**
   * Where an existing series would be, without placing anything: the series directory's answer for
   * an exact name under placement. Nothing per series is kept, so a name is answered from its
   * shard's placement whether or not anything was stored under it; empty if the shard is not
   * placed.
   */
  public List<SeriesAssignment> locate(String series) {
    int shard = Shards.of(SeriesName.parse(series));
    List<String> hosts = store.read(PlacementPart.partOf(shard)).hosts(shard);
    if (hosts.isEmpty()) {
      return List.of();
    }
    return List.of(
        SeriesAssignment.newBuilder()
            .setSeries(series)
            .setMemoryHost(hosts.get(0))
            .setAddress(live().getOrDefault(hosts.get(0), ""))
            .setRecheckAfterMs(RECHECK_AFTER.toMillis())
            .build());
  }

  /**
   * Places the shards of a part that have no placement, one part at a time in this process (the
   * registry's versioned write decides between nameservers). A whole part at once: at most 16
   * writes place a site, however many sensors start together.
   */
  private PlacementPart place(int part, Collection<String> live) {
    synchronized (placing) {
      return store.update(part, shards -> rules.fill(part, shards, live));
    }
  }

  /**
   * Replaces memory-hosts gone longer than {@code replaceAfter}. Does nothing while the link to the
   * registry is down: absences are judged on a live view only. Shards are placed when first needed
   * ({@link #assign}), not here: placing every shard when the first memory-host joins would put the
   * whole site, for good, on whichever memory-host started first.
   */
  public void maintain() {
    synchronized (maintaining) {
      maintainNow();
    }
  }

  private void maintainNow() {
    if (registry.state() != RegistryState.CONNECTED) {
      return;
    }
    try {
      Set<String> live = live().keySet();
      Set<String> placed = new HashSet<>();
      for (int part = 0; part < PlacementPart.PARTS; part++) {
        store.read(part).shards().forEach(placed::addAll);
      }
      rules.observe(live, placed);
      for (int part = 0; part < PlacementPart.PARTS; part++) {
        int p = part;
        Map<String, Integer> moved = new TreeMap<>();
        store.update(
            p,
            shards -> {
              List<List<String>> next = rules.replace(p, shards, live);
              moved.clear(); // the write may be tried again on a newer version
              for (int i = 0; i < next.size(); i++) {
                List<String> was = shards.get(i);
                if (!was.isEmpty() && !next.get(i).equals(was)) {
                  moved.merge(was.get(0) + " -> " + next.get(i).get(0), 1, Integer::sum);
                }
              }
              return next;
            });
        // Only the nameserver whose write won logs: the others found nothing left to replace.
        moved.forEach(
            (what, n) ->
                log.warn(
                    "memory-host placement: {} shards moved {} (gone longer than {})",
                    n,
                    what,
                    rules.replaceAfter()));
      }
    } catch (RegistryException e) {
      log.warn("cannot bring the memory-host placement up to date: {}", e.getMessage());
    }
  }

  /**
   * The placement of the shards asked (every shard if {@code shards} is empty), only those placed
   * on {@code memoryHost} unless it is empty.
   */
  public GetPlacementResponse show(List<Integer> shards, String memoryHost) {
    Set<Integer> only = new TreeSet<>();
    for (int s : shards) {
      only.add(Shards.check(s));
    }
    Map<String, String> live = live();
    GetPlacementResponse.Builder out =
        GetPlacementResponse.newBuilder().setReplaceAfterMs(rules.replaceAfter().toMillis());
    Map<String, Integer> count = new LinkedHashMap<>();
    Set<String> named = new TreeSet<>(live.keySet());
    for (int part = 0; part < PlacementPart.PARTS; part++) {
      PlacementPart p = store.read(part);
      for (int i = 0; i < PlacementPart.SHARDS; i++) {
        int shard = p.firstShard() + i;
        List<String> hosts = p.shards().get(i);
        named.addAll(hosts);
        if ((!only.isEmpty() && !only.contains(shard))
            || (!memoryHost.isEmpty() && !hosts.contains(memoryHost))) {
          continue;
        }
        out.addShards(PlacedShard.newBuilder().setShard(shard).addAllMemoryHosts(hosts));
        if (!hosts.isEmpty()) {
          count.merge(hosts.get(0), 1, Integer::sum);
        }
      }
    }
    rules.observe(live.keySet(), named);
    for (String id : named) {
      if (!memoryHost.isEmpty() && !memoryHost.equals(id)) {
        continue;
      }
      PlacementMemoryHost.Builder h =
          PlacementMemoryHost.newBuilder().setName(id).setShardCount(count.getOrDefault(id, 0));
      if (live.containsKey(id)) {
        h.setState(MemoryHostState.MEMORY_HOST_STATE_LIVE).setAddress(live.get(id));
      } else {
        h.setState(MemoryHostState.MEMORY_HOST_STATE_GONE)
            .setGoneSinceMs(rules.goneSince(id).map(t -> t.toEpochMilli()).orElse(0L));
      }
      out.addMemoryHosts(h);
    }
    return out.build();
  }

  /**
   * Places {@code shards}, or every shard placed first on {@code fromHost}, on {@code target}.
   *
   * @return the shards whose placement changed, in order
   * @throws IllegalArgumentException naming a shard out of range, a memory-host not live, or a
   *     request that gives both or neither of shards and {@code fromHost}
   */
  public List<Integer> move(List<Integer> shards, String fromHost, String target) {
    if (shards.isEmpty() == fromHost.isEmpty()) {
      throw new IllegalArgumentException(
          "give either shards or from_memory_host (the memory-host whose shards move), not "
              + (shards.isEmpty() ? "neither" : "both"));
    }
    Set<Integer> only = new TreeSet<>();
    for (int s : shards) {
      only.add(Shards.check(s));
    }
    if (target.isEmpty()) {
      throw new IllegalArgumentException("to_memory_host is empty: name a live memory-host");
    }
    Map<String, String> live = live();
    if (!live.containsKey(target)) {
      throw new IllegalArgumentException(
          "memory-host '"
              + target
              + "' is not live in the registry (live: "
              + (live.isEmpty() ? "none" : String.join(", ", live.keySet()))
              + ")");
    }
    List<Integer> moved = new ArrayList<>();
    boolean fromKnown = fromHost.isEmpty() || live.containsKey(fromHost);
    for (int part = 0; part < PlacementPart.PARTS; part++) {
      int p = part;
      PlacementPart before = store.read(p);
      boolean touches = false;
      for (int i = 0; i < PlacementPart.SHARDS; i++) {
        List<String> hosts = before.shards().get(i);
        fromKnown |= hosts.contains(fromHost);
        touches |=
            fromHost.isEmpty()
                ? only.contains(before.firstShard() + i)
                : !hosts.isEmpty() && hosts.get(0).equals(fromHost);
      }
      if (!touches) {
        continue;
      }
      List<Integer> changed = new ArrayList<>();
      store.update(
          p,
          now -> {
            IntPredicate which =
                fromFirst(now, p, fromHost).or(s -> fromHost.isEmpty() && only.contains(s));
            List<List<String>> next = rules.move(p, now, which, target);
            changed.clear(); // the write may be tried again on a newer version
            for (int i = 0; i < PlacementPart.SHARDS; i++) {
              if (!next.get(i).equals(now.get(i))) {
                changed.add(p * PlacementPart.SHARDS + i);
              }
            }
            return next;
          });
      moved.addAll(changed);
    }
    if (!fromKnown) {
      throw new IllegalArgumentException(
          "memory-host '" + fromHost + "' holds no shard and is not live in the registry");
    }
    return moved;
  }

  /** Shards of the part placed first on {@code host} ({@code host} empty: none). */
  private static IntPredicate fromFirst(List<List<String>> shards, int part, String host) {
    return s -> {
      if (host.isEmpty()) {
        return false;
      }
      List<String> hosts = shards.get(s - part * PlacementPart.SHARDS);
      return !hosts.isEmpty() && hosts.get(0).equals(host);
    };
  }

  @Override
  public synchronized void close() throws Exception {
    for (AutoCloseable f : followers) {
      f.close();
    }
    membersWatch.close();
    store.close();
  }
}
