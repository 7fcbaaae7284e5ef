package org.netweather.nameserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.model.SeriesName;
import org.netweather.model.SeriesPattern;
import org.netweather.nameserver.JournalEntry.Assigned;
import org.netweather.nameserver.JournalEntry.CliqueDeleted;
import org.netweather.nameserver.JournalEntry.CliquePut;
import org.netweather.nameserver.JournalEntry.Registered;
import org.netweather.nameserver.JournalEntry.Renewed;
import org.netweather.nameserver.JournalEntry.Unregistered;

/**
 * The nameserver's state and rules: registrations with leases, attribute search, the series
 * directory and clique definitions, kept durable by a {@link Journal}. Bad input raises
 * {@link IllegalArgumentException} with a message naming the field, and changes nothing.
 *
 * <p>The directory keeps a series on its memory-host while that host's lease is live, and
 * gives series without a live memory-host to the live one holding the fewest series. After a
 * restart, every lease that was live when the nameserver stopped gets one more full TTL, so
 * daemons have time to heartbeat again before anything moves.
 *
 * <p>Thread-safety: every public method is synchronized; the state is small and the journal
 * write is the only slow step.
 */
public final class Nameserver implements AutoCloseable {
  public static final String MEMORY_KIND = "memory";
  static final long MIN_TTL_SECONDS = 1;
  static final long MAX_TTL_SECONDS = 86_400;
  static final int MAX_SERIES_PER_CALL = 10_000;
  private static final long COMPACT_AFTER_FRAMES = 10_000;

  private final Clock clock;
  private final Journal journal;
  private final Map<String, Lease> byName = new HashMap<>();
  private final Map<String, String> nameByLease = new HashMap<>();
  private final TreeMap<String, Assigned> assignments = new TreeMap<>();
  private final Map<String, Integer> seriesCount = new HashMap<>();
  private final TreeMap<String, Clique> cliques = new TreeMap<>();

  private record Lease(String leaseId, long ttlMs, Registration registration) {
    Lease withExpiry(long expiresMs) {
      return new Lease(leaseId, ttlMs, registration.toBuilder().setExpiresMs(expiresMs).build());
    }

    boolean liveAt(long now) {
      return registration.getExpiresMs() > now;
    }
  }

  private Nameserver(Clock clock, Journal journal) {
    this.clock = clock;
    this.journal = journal;
  }

  /** Opens (or creates) the state kept in {@code dir}. */
  public static Nameserver open(Path dir, Clock clock) throws IOException {
    Journal journal = new Journal(dir);
    Nameserver ns = new Nameserver(clock, journal);
    ns.replay(journal.load());
    return ns;
  }

  private void replay(List<JournalEntry> entries) {
    long lastActivity = 0;
    for (JournalEntry e : entries) {
      apply(e);
      if (e instanceof Registered r) {
        lastActivity = Math.max(lastActivity, r.registration().getRegisteredMs());
      } else if (e instanceof Renewed r) {
        String name = nameByLease.get(r.leaseId());
        if (name != null) {
          lastActivity = Math.max(lastActivity, r.expiresMs() - byName.get(name).ttlMs());
        }
      } else if (e instanceof Assigned a) {
        lastActivity = Math.max(lastActivity, a.assignedMs());
      }
    }
    long now = clock.millis();
    for (Lease l : new ArrayList<>(byName.values())) {
      if (l.liveAt(lastActivity)) {
        long expires = Math.max(l.registration().getExpiresMs(), now + l.ttlMs());
        byName.put(l.registration().getName(), l.withExpiry(expires));
      } else {
        remove(l.registration().getName());
      }
    }
  }

  private void apply(JournalEntry e) {
    if (e instanceof Registered r) {
      remove(r.registration().getName());
      byName.put(r.registration().getName(), new Lease(r.leaseId(), r.ttlMs(), r.registration()));
      nameByLease.put(r.leaseId(), r.registration().getName());
    } else if (e instanceof Renewed r) {
      String name = nameByLease.get(r.leaseId());
      if (name != null) {
        byName.put(name, byName.get(name).withExpiry(r.expiresMs()));
      }
    } else if (e instanceof Unregistered u) {
      remove(u.name());
    } else if (e instanceof Assigned a) {
      Assigned old = assignments.put(a.series(), a);
      if (old != null) {
        seriesCount.merge(old.memoryHost(), -1, Integer::sum);
      }
      seriesCount.merge(a.memoryHost(), 1, Integer::sum);
    } else if (e instanceof CliquePut c) {
      cliques.put(c.clique().getName(), c.clique());
    } else if (e instanceof CliqueDeleted c) {
      cliques.remove(c.name());
    }
  }

  private boolean remove(String name) {
    Lease old = byName.remove(name);
    if (old != null) {
      nameByLease.remove(old.leaseId());
    }
    return old != null;
  }

  private void commit(List<? extends JournalEntry> entries, boolean sync) {
    if (entries.isEmpty()) {
      return;
    }
    try {
      journal.append(entries, sync);
      for (JournalEntry e : entries) {
        apply(e);
      }
      if (journal.journalFrames() > COMPACT_AFTER_FRAMES) {
        journal.compact(stateEntries());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("nameserver state could not be written", e);
    }
  }

  private List<JournalEntry> stateEntries() {
    List<JournalEntry> state = new ArrayList<>();
    long now = clock.millis();
    for (Lease l : byName.values()) {
      if (l.liveAt(now)) {
        state.add(new Registered(l.leaseId(), l.ttlMs(), l.registration()));
      }
    }
    state.addAll(assignments.values());
    for (Clique c : cliques.values()) {
      state.add(new CliquePut(c));
    }
    return state;
  }

  /** Registers or replaces {@code r.name} and returns its new lease. */
  public synchronized Registered register(Registration r, long ttlSeconds) {
    RegistrationRules.check(r);
    if (ttlSeconds < MIN_TTL_SECONDS || ttlSeconds > MAX_TTL_SECONDS) {
      throw new IllegalArgumentException("ttl_seconds " + ttlSeconds + " is outside ["
          + MIN_TTL_SECONDS + ", " + MAX_TTL_SECONDS + "]");
    }
    long now = clock.millis();
    long ttlMs = ttlSeconds * 1000;
    Registration stored = r.toBuilder().setRegisteredMs(now).setExpiresMs(now + ttlMs).build();
    Registered entry = new Registered(UUID.randomUUID().toString(), ttlMs, stored);
    commit(List.of(entry), true);
    return entry;
  }

  /** Extends a live lease by its TTL; empty if the lease is unknown or expired. */
  public synchronized OptionalLong heartbeat(String leaseId) {
    if (leaseId == null || leaseId.isEmpty()) {
      throw new IllegalArgumentException("lease_id is empty");
    }
    String name = nameByLease.get(leaseId);
    long now = clock.millis();
    if (name == null || !byName.get(name).liveAt(now)) {
      return OptionalLong.empty();
    }
    long expires = now + byName.get(name).ttlMs();
    // Not forced: after a crash every live lease gets a fresh TTL anyway.
    commit(List.of(new Renewed(leaseId, expires)), false);
    return OptionalLong.of(expires);
  }

  /** Removes a registration; false if there was no live one. */
  public synchronized boolean unregister(String name) {
    RegistrationRules.checkName(name);
    boolean live = lookup(name).isPresent();
    if (byName.containsKey(name)) {
      commit(List.of(new Unregistered(name)), true);
    }
    return live;
  }

  public synchronized Optional<Registration> lookup(String name) {
    RegistrationRules.checkName(name);
    Lease l = byName.get(name);
    return l != null && l.liveAt(clock.millis()) ? Optional.of(l.registration())
        : Optional.empty();
  }

  /** Live registrations matching {@code filter}, sorted by name. */
  public synchronized List<Registration> search(Filter filter) {
    long now = clock.millis();
    TreeMap<String, Registration> out = new TreeMap<>();
    for (Lease l : byName.values()) {
      if (l.liveAt(now) && filter.matches(RegistrationRules.searchable(l.registration()))) {
        out.put(l.registration().getName(), l.registration());
      }
    }
    return new ArrayList<>(out.values());
  }

  /**
   * The memory-host of each series, assigning one where needed.
   *
   * @throws IllegalStateException if a series needs a memory-host and none is live
   */
  public synchronized List<SeriesAssignment> assign(List<String> series) {
    if (series.isEmpty()) {
      throw new IllegalArgumentException("series is empty");
    }
    if (series.size() > MAX_SERIES_PER_CALL) {
      throw new IllegalArgumentException("series has " + series.size() + " names; at most "
          + MAX_SERIES_PER_CALL + " per call");
    }
    for (String s : series) {
      SeriesName.parse(s);
    }
    long now = clock.millis();
    List<Lease> live = new ArrayList<>();
    for (Lease l : byName.values()) {
      if (l.liveAt(now) && MEMORY_KIND.equals(l.registration().getKind())) {
        live.add(l);
      }
    }
    Set<String> liveNames = new HashSet<>();
    live.forEach(l -> liveNames.add(l.registration().getName()));
    Map<String, Assigned> fresh = new HashMap<>();
    Map<String, Integer> load = new HashMap<>(seriesCount);
    for (String s : series) {
      Assigned a = assignments.get(s);
      if ((a != null && liveNames.contains(a.memoryHost())) || fresh.containsKey(s)) {
        continue;
      }
      if (live.isEmpty()) {
        throw new IllegalStateException("no memory-host is registered to store " + s);
      }
      Lease target = null;
      for (Lease l : live) {
        if (target == null || load.getOrDefault(l.registration().getName(), 0)
            < load.getOrDefault(target.registration().getName(), 0)) {
          target = l;
        }
      }
      String host = target.registration().getName();
      load.merge(host, 1, Integer::sum);
      if (a != null) {
        load.merge(a.memoryHost(), -1, Integer::sum);
      }
      fresh.put(s, new Assigned(s, host, now));
    }
    commit(new ArrayList<>(fresh.values()), true);
    List<SeriesAssignment> out = new ArrayList<>(series.size());
    for (String s : series) {
      out.add(toProto(assignments.get(s)));
    }
    return out;
  }

  /** Registrations whose lease is live now. */
  public synchronized int liveRegistrations() {
    long now = clock.millis();
    int n = 0;
    for (Lease l : byName.values()) {
      if (l.liveAt(now)) {
        n++;
      }
    }
    return n;
  }

  /** Series in the directory. */
  public synchronized int directorySize() {
    return assignments.size();
  }

  /** The directory, optionally filtered by a series pattern. */
  public synchronized List<SeriesAssignment> directory(String pattern) {
    SeriesPattern p = pattern == null || pattern.isEmpty() ? null : SeriesPattern.parse(pattern);
    List<SeriesAssignment> out = new ArrayList<>();
    for (Assigned a : assignments.values()) {
      if (p == null || p.matches(a.series())) {
        out.add(toProto(a));
      }
    }
    return out;
  }

  private SeriesAssignment toProto(Assigned a) {
    Lease l = byName.get(a.memoryHost());
    return SeriesAssignment.newBuilder()
        .setSeries(a.series())
        .setMemoryHost(a.memoryHost())
        .setAddress(l != null && l.liveAt(clock.millis()) ? l.registration().getAddress() : "")
        .setAssignedMs(a.assignedMs())
        .build();
  }

  public synchronized Clique putClique(Clique c) {
    RegistrationRules.checkClique(c);
    commit(List.of(new CliquePut(c)), true);
    return c;
  }

  public synchronized boolean deleteClique(String name) {
    RegistrationRules.checkName(name);
    if (!cliques.containsKey(name)) {
      return false;
    }
    commit(List.of(new CliqueDeleted(name)), true);
    return true;
  }

  public synchronized List<Clique> cliques(String host) {
    if (host != null && !host.isEmpty()) {
      String p = SeriesName.nameProblem("host", host);
      if (p != null) {
        throw new IllegalArgumentException(p);
      }
    }
    List<Clique> out = new ArrayList<>();
    for (Clique c : cliques.values()) {
      if (host == null || host.isEmpty() || c.getMembersList().contains(host)) {
        out.add(c);
      }
    }
    return out;
  }

  @Override
  public synchronized void close() throws IOException {
    journal.compact(stateEntries());
    journal.close();
  }
}
