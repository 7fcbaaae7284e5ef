package org.netweather.nameserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.MissingDaemon;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.model.SeriesName;
import org.netweather.model.SeriesPattern;
import org.netweather.nameserver.JournalEntry.Assigned;
import org.netweather.nameserver.JournalEntry.CliqueDeleted;
import org.netweather.nameserver.JournalEntry.CliquePut;
import org.netweather.nameserver.JournalEntry.Forgotten;
import org.netweather.nameserver.JournalEntry.Registered;
import org.netweather.nameserver.JournalEntry.Renewed;
import org.netweather.nameserver.JournalEntry.Unregistered;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nameserver's state and rules: registrations with leases, attribute search, the series
 * directory and clique definitions, kept durable by a {@link Journal}. Bad input raises {@link
 * IllegalArgumentException} with a message naming the field, and changes nothing.
 *
 * <p>The directory keeps a series on its memory-host while that host's lease is live, and gives
 * series without a live memory-host to the live one holding the fewest series.
 *
 * <p>Leases. A heartbeat only moves an expiry in memory: it writes nothing, forces nothing and
 * allocates nothing beyond its messages, because at thousands of sensors heartbeats are nearly all
 * the nameserver's work and a renewal is worth nothing after a restart anyway. On opening, every
 * lease held is granted one full TTL from then (or its recorded expiry, if later), so daemons have
 * time to heartbeat again before anything moves; the price is that a daemon that died shortly
 * before the nameserver stopped stays listed for one more TTL. Registrations, unregistrations,
 * assignments and cliques are journaled and forced before they are answered.
 *
 * <p>Compaction. The journal is folded into a new snapshot once it outweighs {@link
 * #COMPACT_FACTOR} times the snapshot (and at least {@code compactMinBytes}), so the files on disk
 * follow the live state, not its history: a register/unregister churn costs at most a few
 * snapshots' worth.
 *
 * <p>Departures. A lease that expires, or a registration removed, is kept a while as a missing
 * daemon ({@link Departures}, bounded in count and age, in memory only) so that a daemon that died
 * shows as missing instead of vanishing. {@link #sweep} moves expired leases there; the server
 * calls it periodically, and {@link #missing} before answering.
 *
 * <p>Clique watches. {@link #watchCliques} hands a host's cliques to a sink at once and after every
 * change to them, under this object's lock, so a sink sees the changes in order; sinks must not
 * block.
 *
 * <p>Thread-safety: every public method is synchronized; the state is small and the journal write
 * is the only slow step.
 */
public final class Nameserver implements SeriesDirectory, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Nameserver.class);
  public static final String MEMORY_KIND = "memory";
  static final long MIN_TTL_SECONDS = 1;
  static final long MAX_TTL_SECONDS = 86_400;
  static final int MAX_SERIES_PER_CALL = 10_000;

  /** The journal is compacted once it weighs this many times the snapshot... */
  static final int COMPACT_FACTOR = 2;

  /** ...and at least this much, so a small state is not rewritten after every few changes. */
  static final long DEFAULT_COMPACT_MIN_BYTES = 4L << 20;

  private final Clock clock;
  private final Journal journal;
  private final long compactMinBytes;

  /** By name, sorted for paged search. */
  private final TreeMap<String, Lease> byName = new TreeMap<>();

  private final AttributeIndex index = new AttributeIndex();

  private final Map<String, Lease> byLease = new HashMap<>();

  /** Names by where the site's registry keeps them ({@link SharedRecords#scope}). */
  private final Map<String, Set<String>> scopes = new HashMap<>();

  private final TreeMap<String, Assigned> assignments = new TreeMap<>();
  private final Map<String, Integer> seriesCount = new HashMap<>();
  private final TreeMap<String, Clique> cliques = new TreeMap<>();
  private final Map<String, List<Consumer<List<Clique>>>> cliqueWatchers = new HashMap<>();
  private final Departures departures;
  private final StallWatch stalls;
  private long stallsSeen;

  /** Registrations granted here so far: numbers each lease, see {@link #grantsSoFar}. */
  private long grants;

  /**
   * The site's registry, when registrations and cliques are shared with other nameservers (see
   * {@link SiteSync}); null on a site of one nameserver, where the journal holds everything.
   */
  private SiteSync site;

  /**
   * A registration and its lease; the expiry moves in place on every heartbeat. A lease held by
   * another nameserver of the site (read from the registry) has a {@code holder}: it is live while
   * that nameserver lists it, and becomes this nameserver's when its daemon heartbeats here.
   */
  private static final class Lease {
    final String leaseId;
    final long ttlMs;

    /** The nameserver holding the lease; null: this one. */
    String holder;

    /**
     * Which registration granted here this lease was (1, 2, ...), once its record is in the site's
     * registry; 0 for a lease read from the registry or the journal.
     */
    long grant;

    /** As registered; its expires_ms is brought up to date when it is handed out. */
    private Registration registration;

    long expiresMs;

    /** What filters see; computed once, as the registration's fields never change. */
    final Map<String, String> searchable;

    Lease(String leaseId, long ttlMs, Registration registration) {
      this.leaseId = leaseId;
      this.ttlMs = ttlMs;
      this.registration = registration;
      this.expiresMs = registration.getExpiresMs();
      this.searchable = Map.copyOf(RegistrationRules.searchable(registration));
    }

    String name() {
      return registration.getName();
    }

    Registration registration() {
      if (registration.getExpiresMs() != expiresMs) {
        registration = registration.toBuilder().setExpiresMs(expiresMs).build();
      }
      return registration;
    }

    /** For matching and addresses: every field but the expiry is current. */
    Registration stale() {
      return registration;
    }

    boolean liveAt(long now) {
      return holder != null || expiresMs > now;
    }
  }

  private Nameserver(
      Clock clock,
      Journal journal,
      long compactMinBytes,
      Departures departures,
      LongSupplier nanoTime) {
    this.clock = clock;
    this.journal = journal;
    this.compactMinBytes = compactMinBytes;
    this.departures = departures;
    this.stalls = new StallWatch(nanoTime);
  }

  /** Opens (or creates) the state kept in {@code dir}. */
  public static Nameserver open(Path dir, Clock clock) throws IOException {
    return open(dir, clock, DEFAULT_COMPACT_MIN_BYTES);
  }

  /**
   * As {@link #open(Path, Clock)}, keeping at most {@code missingMax} missing daemons for {@code
   * missingAge} each.
   */
  public static Nameserver open(Path dir, Clock clock, int missingMax, Duration missingAge)
      throws IOException {
    return open(dir, clock, DEFAULT_COMPACT_MIN_BYTES, new Departures(missingMax, missingAge));
  }

  /** As {@link #open(Path, Clock)}, compacting once the journal passes {@code compactMinBytes}. */
  static Nameserver open(Path dir, Clock clock, long compactMinBytes) throws IOException {
    return open(
        dir,
        clock,
        compactMinBytes,
        new Departures(Departures.DEFAULT_MAX_COUNT, Departures.DEFAULT_MAX_AGE));
  }

  private static Nameserver open(Path dir, Clock clock, long compactMinBytes, Departures departures)
      throws IOException {
    return open(dir, clock, compactMinBytes, departures, System::nanoTime);
  }

  /** As {@link #open(Path, Clock)}, with the monotonic clock that times stalls (nanoseconds). */
  static Nameserver open(Path dir, Clock clock, LongSupplier nanoTime) throws IOException {
    return open(
        dir,
        clock,
        DEFAULT_COMPACT_MIN_BYTES,
        new Departures(Departures.DEFAULT_MAX_COUNT, Departures.DEFAULT_MAX_AGE),
        nanoTime);
  }

  private static Nameserver open(
      Path dir, Clock clock, long compactMinBytes, Departures departures, LongSupplier nanoTime)
      throws IOException {
    Journal journal = new Journal(dir);
    Nameserver ns = new Nameserver(clock, journal, compactMinBytes, departures, nanoTime);
    ns.replay(journal.load());
    return ns;
  }

  private void replay(List<JournalEntry> entries) {
    for (JournalEntry e : entries) {
      apply(e);
    }
    // Renewals were never written: whatever is held gets a full TTL to heartbeat again.
    long now = clock.millis();
    for (Lease l : byName.values()) {
      l.expiresMs = Math.max(l.expiresMs, now + l.ttlMs);
    }
  }

  private void apply(JournalEntry e) {
    if (e instanceof Registered r) {
      remove(r.registration().getName());
      departures.remove(r.registration().getName());
      Lease l = new Lease(r.leaseId(), r.ttlMs(), r.registration());
      byName.put(l.name(), l);
      byLease.put(l.leaseId, l);
      index.add(l.name(), l.searchable);
      scopes.computeIfAbsent(SharedRecords.scope(l.stale()), k -> new HashSet<>()).add(l.name());
    } else if (e instanceof Renewed r) {
      Lease l = byLease.get(r.leaseId());
      if (l != null) {
        l.expiresMs = r.expiresMs();
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
    } else if (e instanceof Forgotten f) {
      SeriesPattern p = SeriesPattern.parse(f.pattern());
      var it = assignments.values().iterator();
      while (it.hasNext()) {
        Assigned a = it.next();
        if (p.matches(a.series())
            && (f.memoryHost().isEmpty() || f.memoryHost().equals(a.memoryHost()))) {
          it.remove();
          seriesCount.merge(a.memoryHost(), -1, Integer::sum);
        }
      }
    }
  }

  private boolean remove(String name) {
    Lease old = byName.remove(name);
    if (old != null) {
      byLease.remove(old.leaseId);
      index.remove(name, old.searchable);
      String scope = SharedRecords.scope(old.stale());
      Set<String> names = scopes.get(scope);
      if (names != null && names.remove(name) && names.isEmpty()) {
        scopes.remove(scope);
      }
    }
    return old != null;
  }

  private void commit(List<? extends JournalEntry> entries, boolean sync) {
    if (entries.isEmpty()) {
      return;
    }
    Set<String> cliqueHosts = new TreeSet<>();
    for (JournalEntry e : entries) {
      if (e instanceof CliquePut c) {
        cliqueHosts.addAll(c.clique().getMembersList());
        membersOf(c.clique().getName(), cliqueHosts);
      } else if (e instanceof CliqueDeleted c) {
        membersOf(c.name(), cliqueHosts);
      }
    }
    try {
      List<? extends JournalEntry> durable = entries;
      if (site != null) {
        // Registrations and cliques live in the site's registry; the journal keeps the rest.
        durable = entries.stream().filter(Nameserver::journaledWhenShared).toList();
      }
      if (!durable.isEmpty()) {
        journal.append(durable, sync);
      }
      for (JournalEntry e : entries) {
        apply(e);
      }
      if (journal.journalBytes()
          > Math.max(compactMinBytes, COMPACT_FACTOR * journal.snapshotBytes())) {
        journal.compact(stateEntries());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("nameserver state could not be written", e);
    }
    tellCliqueWatchers(cliqueHosts);
  }

  private static boolean journaledWhenShared(JournalEntry e) {
    return e instanceof Assigned || e instanceof Forgotten;
  }

  private void tellCliqueWatchers(Set<String> cliqueHosts) {
    for (String host : cliqueHosts) {
      List<Consumer<List<Clique>>> sinks = cliqueWatchers.get(host);
      if (sinks != null) {
        List<Clique> now = cliques(host);
        for (Consumer<List<Clique>> sink : List.copyOf(sinks)) {
          sink.accept(now);
        }
      }
    }
  }

  private void membersOf(String clique, Set<String> into) {
    Clique old = cliques.get(clique);
    if (old != null) {
      into.addAll(old.getMembersList());
    }
  }

  /**
   * From now on, keeps registrations and cliques in the site's registry through {@code site}
   * instead of the journal. What the journal held of them is dropped (the registry is the truth;
   * daemons register again within a heartbeat), except cliques the registry lacks, which are
   * returned for the caller to copy up: a site moving to the registry keeps its cliques.
   */
  synchronized List<Clique> share(SiteSync site) {
    this.site = site;
    List<Clique> own = List.copyOf(cliques.values());
    for (String name : List.copyOf(byName.keySet())) {
      remove(name);
    }
    cliques.clear();
    return own;
  }

  /** What {@link #reconcile} changed: whether this nameserver's live set of the scope did. */
  record Reconciled(boolean ownSetChanged, List<Registered> unheld) {}

  /**
   * Brings one scope (the daemons, or one cluster's hosts) in line with the site's registry, as
   * read after {@code grantsBefore} registrations had been granted here ({@link #grantsSoFar}
   * before the read began): {@code records} by name, {@code holders} (name → a live nameserver
   * other than this one whose live set lists it) and {@code orphans} (names listed only by
   * nameservers that are gone, or by this one before it restarted).
   *
   * <ul>
   *   <li>a record held here stays as it is (it is this nameserver's lease);
   *   <li>a record another live nameserver holds is listed here, live while it holds it;
   *   <li>an orphan is adopted: this nameserver holds it from now, with one TTL of grace for its
   *       daemon to heartbeat here;
   *   <li>a record nobody holds is listed for one TTL after its registration (its nameserver may
   *       not have published its live set yet), then returned as {@code unheld}: the caller removes
   *       it from the registry; but one in {@code grantedElsewhere} (granted by another nameserver
   *       that is alive) stays listed for as long as it is there: that nameserver answers for it,
   *       and its live set may be late by more than a TTL when it is loaded;
   *   <li>a lease whose record is gone (unregistered, or removed as unheld) leaves, unless it was
   *       granted here after the read began: its record may have been written after the read was
   *       answered, and this nameserver's own next read will show it.
   * </ul>
   */
  synchronized Reconciled reconcile(
      String scope,
      Map<String, SharedRecords.Shared> records,
      Map<String, String> holders,
      Set<String> orphans,
      Set<String> grantedElsewhere,
      long grantsBefore) {
    long now = leaseNow();
    boolean changed = false;
    List<Registered> unheld = new ArrayList<>();
    for (String name : List.copyOf(scopes.getOrDefault(scope, Set.of()))) {
      Lease l = byName.get(name);
      if (!records.containsKey(name) && l.grant <= grantsBefore) {
        remove(name);
        departures.add(l.registration(), now, "removed from the site's registry", now);
        changed |= l.holder == null;
      }
    }
    for (SharedRecords.Shared rec : records.values()) {
      String name = rec.name();
      Lease l = byName.get(name);
      Registered r = rec.lease();
      if (l != null && l.holder == null) {
        if (l.leaseId.equals(r.leaseId())
            || l.stale().getRegisteredMs() > r.registration().getRegisteredMs()) {
          continue; // held here (the record may be older than this nameserver's own write)
        }
      }
      String holder = holders.get(name);
      if (holder != null) {
        place(r, holder, now);
      } else if (orphans.contains(name)) {
        place(r, null, now);
        changed = true;
      } else if (r.registration().getRegisteredMs() + r.ttlMs() > now
          || grantedElsewhere.contains(name)) {
        place(r, "", now); // registered elsewhere: its live set follows
      } else {
        if (l != null && l.leaseId.equals(r.leaseId())) {
          remove(name);
          departures.add(l.registration(), now, "lease expired", now);
          changed |= l.holder == null;
        }
        unheld.add(r);
      }
    }
    return new Reconciled(changed, unheld);
  }

  /** Lists {@code r} as held by {@code holder} (null: here, a TTL from now). */
  private void place(Registered r, String holder, long now) {
    Lease l = byName.get(r.registration().getName());
    if (l == null || !l.leaseId.equals(r.leaseId())) {
      apply(r);
      l = byName.get(r.registration().getName());
      l.expiresMs = now + l.ttlMs;
    }
    if (holder == null && l.holder != null) {
      l.expiresMs = now + l.ttlMs;
    }
    l.holder = holder;
  }

  /**
   * How many registrations were granted here so far. A lease granted before a read of the registry
   * began has its record in that read (its write was answered before the lease was granted, and the
   * registry shows a reader its own writes), so if the read lacks it the record was removed since;
   * one granted later may simply have been written after the read was answered.
   */
  synchronized long grantsSoFar() {
    return grants;
  }

  /** The names this nameserver holds a live lease for in {@code scope}, sorted. */
  synchronized Set<String> heldHere(String scope) {
    long now = leaseNow();
    Set<String> out = new TreeSet<>();
    for (String name : scopes.getOrDefault(scope, Set.of())) {
      Lease l = byName.get(name);
      if (l.holder == null && l.liveAt(now)) {
        out.add(name);
      }
    }
    return out;
  }

  /** The scopes with a registration known here. */
  synchronized Set<String> knownScopes() {
    return new TreeSet<>(scopes.keySet());
  }

  /** Takes the cliques the site's registry holds now, telling the watchers of what changed. */
  synchronized void cliquesFromRegistry(List<Clique> shared) {
    Map<String, Clique> want = new HashMap<>();
    shared.forEach(c -> want.put(c.getName(), c));
    Set<String> hosts = new TreeSet<>();
    for (String name : List.copyOf(cliques.keySet())) {
      if (!want.containsKey(name)) {
        membersOf(name, hosts);
        cliques.remove(name);
      }
    }
    for (Clique c : want.values()) {
      if (!c.equals(cliques.get(c.getName()))) {
        membersOf(c.getName(), hosts);
        hosts.addAll(c.getMembersList());
        cliques.put(c.getName(), c);
      }
    }
    tellCliqueWatchers(hosts);
  }

  private List<JournalEntry> stateEntries() {
    List<JournalEntry> state = new ArrayList<>();
    long now = leaseNow();
    if (site == null) {
      for (Lease l : byName.values()) {
        if (l.liveAt(now)) {
          state.add(new Registered(l.leaseId, l.ttlMs, l.registration()));
        }
      }
    }
    state.addAll(assignments.values());
    if (site == null) {
      for (Clique c : cliques.values()) {
        state.add(new CliquePut(c));
      }
    }
    return state;
  }

  /**
   * Registers or replaces {@code r.name} and returns its new lease. With a shared registry the
   * record is written there first, outside this object's lock (heartbeats go on meanwhile); if the
   * registry cannot take it within its bound, this throws UNAVAILABLE and nothing changes.
   */
  public Registered register(Registration r, long ttlSeconds) {
    RegistrationRules.check(r);
    if (ttlSeconds < MIN_TTL_SECONDS || ttlSeconds > MAX_TTL_SECONDS) {
      throw new IllegalArgumentException(
          "ttl_seconds "
              + ttlSeconds
              + " is outside ["
              + MIN_TTL_SECONDS
              + ", "
              + MAX_TTL_SECONDS
              + "]");
    }
    SiteSync shared;
    long now;
    synchronized (this) {
      shared = site;
      now = leaseNow();
    }
    long ttlMs = ttlSeconds * 1000;
    Registration stored = r.toBuilder().setRegisteredMs(now).setExpiresMs(now + ttlMs).build();
    Registered entry = new Registered(UUID.randomUUID().toString(), ttlMs, stored);
    if (shared != null) {
      shared.write(entry);
    }
    synchronized (this) {
      commit(List.of(entry), true);
      if (shared != null) {
        byLease.get(entry.leaseId()).grant = ++grants;
        shared.dirty(SharedRecords.scope(stored));
      }
    }
    return entry;
  }

  /**
   * Extends a live lease by its TTL from now, in memory only (see the class comment).
   *
   * @return the new expiry, or 0 if the lease is unknown or has expired
   */
  public synchronized long heartbeat(String leaseId) {
    if (leaseId == null || leaseId.isEmpty()) {
      throw new IllegalArgumentException("lease_id is empty");
    }
    Lease l = byLease.get(leaseId);
    // Before judging it: a heartbeat after a long silence is a sign the nameserver was cut off.
    stalls.heartbeat(l == null ? 0 : l.ttlMs);
    long now = leaseNow();
    if (l == null || !l.liveAt(now)) {
      return 0;
    }
    if (l.holder != null) {
      // Granted by another nameserver (gone, or no longer reachable by this daemon): this one
      // holds it from now on, a TTL from this heartbeat.
      l.holder = null;
      site.dirty(SharedRecords.scope(l.stale()));
    }
    l.expiresMs = now + l.ttlMs;
    return l.expiresMs;
  }

  /**
   * Tells it that {@link #sweep} runs every {@code period} from now on, so that a sweep much later
   * than that is taken as a stall of the nameserver (see {@link StallWatch}).
   */
  public synchronized void sweepsEvery(Duration period) {
    stalls.sweepsEvery(period.toMillis());
  }

  /** Times the nameserver found it had stalled or been cut off, and granted leases a TTL. */
  public synchronized long stallsSeen() {
    return stallsSeen;
  }

  /** This nameserver's clock, Unix epoch milliseconds, for answers that tell callers its time. */
  public long millis() {
    return clock.millis();
  }

  /**
   * The wall-clock time leases are judged at, after the grace for a stall: if the nameserver was
   * away (paused, or unreachable), every lease that was live when that began gets one full TTL from
   * now before anything is judged expired, as after a restart. Its holders renew on their next try;
   * a daemon truly gone expires one TTL later.
   */
  private long leaseNow() {
    long now = clock.millis();
    long away = stalls.awayMs();
    if (away > 0) {
      int granted = 0;
      for (Lease l : byName.values()) {
        if (l.expiresMs > now - away) {
          l.expiresMs = Math.max(l.expiresMs, now + l.ttlMs);
          granted++;
        }
      }
      stallsSeen++;
      log.warn(
          "the nameserver could not serve for {} s (paused, or cut off from every daemon); {}"
              + " leases get one more TTL from now, as after a restart",
          away / 1000,
          granted);
    }
    return now;
  }

  /** Removes a registration; false if there was no live one. */
  public boolean unregister(String name) {
    RegistrationRules.checkName(name);
    SiteSync shared;
    Lease held;
    synchronized (this) {
      shared = site;
      held = byName.get(name);
    }
    if (shared != null && held != null) {
      shared.remove(held.stale()); // outside the lock, as a registration
    }
    return unregisterHere(name);
  }

  private synchronized boolean unregisterHere(String name) {
    Optional<Registration> live = lookup(name);
    Lease gone = byName.get(name);
    if (gone != null) {
      commit(List.of(new Unregistered(name)), true);
      if (site != null) {
        site.dirty(SharedRecords.scope(gone.stale()));
      }
    }
    long now = leaseNow();
    live.ifPresent(r -> departures.add(r, now, "unregistered", now));
    return live.isPresent();
  }

  /**
   * Moves expired leases to the missing daemons and forgets missing daemons past their age. Costs a
   * pass over the registrations; the server runs it every few seconds.
   */
  public synchronized void sweep() {
    long now = leaseNow();
    stalls.swept();
    List<Lease> expired = new ArrayList<>();
    for (Lease l : byName.values()) {
      if (!l.liveAt(now)) {
        expired.add(l);
      } else if (l.holder != null) {
        l.expiresMs = Math.max(l.expiresMs, now + l.ttlMs); // as shown: its holder renews it
      }
    }
    for (Lease l : expired) {
      remove(l.name());
      departures.add(l.registration(), l.expiresMs - l.ttlMs, "lease expired", now);
      if (site != null) {
        site.dirty(SharedRecords.scope(l.stale()));
      }
    }
    departures.expire(now);
  }

  /** One page of the missing daemons (see {@link Departures}), by name, after {@code pageToken}. */
  public synchronized Page<MissingDaemon> missing(String pageToken, int pageSize) {
    sweep();
    return departures.page(pageToken, pageSize);
  }

  /** Missing daemons kept now. */
  public synchronized int missingCount() {
    return departures.size();
  }

  public synchronized Optional<Registration> lookup(String name) {
    RegistrationRules.checkName(name);
    Lease l = byName.get(name);
    return l != null && l.liveAt(leaseNow()) ? Optional.of(l.registration()) : Optional.empty();
  }

  /** Live registrations matching {@code filter}, sorted by name. */
  public synchronized List<Registration> search(Filter filter) {
    return search(filter, "", Integer.MAX_VALUE).items();
  }

  /** One page of {@link #search(Filter)}, after {@code pageToken} (empty: the first page). */
  public synchronized Page<Registration> search(Filter filter, String pageToken, int pageSize) {
    long now = leaseNow();
    NavigableMap<String, Lease> scope = byName;
    Set<String> candidates = filter.candidates(index::names);
    if (candidates != null) {
      scope = new TreeMap<>();
      for (String name : candidates) {
        Lease l = byName.get(name);
        if (l != null) {
          scope.put(name, l);
        }
      }
    }
    return Page.of(
        scope,
        pageToken,
        pageSize,
        l -> l.liveAt(now) && filter.matches(l.searchable),
        Lease::registration);
  }

  /**
   * The memory-host of each series, assigning one where needed.
   *
   * @throws IllegalStateException if a series needs a memory-host and none is live
   */
  @Override
  public synchronized List<SeriesAssignment> assign(List<String> series) {
    if (series.isEmpty()) {
      throw new IllegalArgumentException("series is empty");
    }
    if (series.size() > MAX_SERIES_PER_CALL) {
      throw new IllegalArgumentException(
          "series has " + series.size() + " names; at most " + MAX_SERIES_PER_CALL + " per call");
    }
    for (String s : series) {
      SeriesName.parse(s);
    }
    long now = leaseNow();
    List<Lease> live = new ArrayList<>();
    for (Lease l : byName.values()) {
      if (l.liveAt(now) && MEMORY_KIND.equals(l.stale().getKind())) {
        live.add(l);
      }
    }
    Set<String> liveNames = new HashSet<>();
    live.forEach(l -> liveNames.add(l.name()));
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
        if (target == null
            || load.getOrDefault(l.name(), 0) < load.getOrDefault(target.name(), 0)) {
          target = l;
        }
      }
      String host = target.name();
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
    long now = leaseNow();
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

  /** Changes lost to damage in the journal when it was loaded (at least this many; WARN says). */
  public synchronized long journalDamagedRecords() {
    return journal.damagedRecords();
  }

  /** The directory, optionally filtered by a series pattern. */
  public synchronized List<SeriesAssignment> directory(String pattern) {
    return directory(pattern, "", Integer.MAX_VALUE).items();
  }

  /** One page of {@link #directory(String)}, after {@code pageToken} (empty: the first). */
  @Override
  public synchronized Page<SeriesAssignment> directory(
      String pattern, String pageToken, int pageSize) {
    SeriesPattern p = pattern == null || pattern.isEmpty() ? null : SeriesPattern.parse(pattern);
    return Page.of(
        assignments, pageToken, pageSize, a -> p == null || p.matches(a.series()), this::toProto);
  }

  /**
   * Drops the directory entries matching {@code pattern} and, unless {@code memoryHost} is empty,
   * assigned to it.
   *
   * @return how many were dropped
   */
  @Override
  public synchronized long forget(String pattern, String memoryHost) {
    if (pattern == null || pattern.isEmpty()) {
      throw new IllegalArgumentException("pattern is empty; use * to forget every series");
    }
    SeriesPattern p = SeriesPattern.parse(pattern);
    String host = memoryHost == null ? "" : memoryHost;
    if (!host.isEmpty()) {
      RegistrationRules.checkName(host);
    }
    long n = 0;
    for (Assigned a : assignments.values()) {
      if (p.matches(a.series()) && (host.isEmpty() || host.equals(a.memoryHost()))) {
        n++;
      }
    }
    if (n > 0) {
      commit(List.of(new Forgotten(pattern, host)), true);
    }
    return n;
  }

  private SeriesAssignment toProto(Assigned a) {
    Lease l = byName.get(a.memoryHost());
    return SeriesAssignment.newBuilder()
        .setSeries(a.series())
        .setMemoryHost(a.memoryHost())
        .setAddress(l != null && l.liveAt(leaseNow()) ? l.stale().getAddress() : "")
        .setAssignedMs(a.assignedMs())
        .build();
  }

  public Clique putClique(Clique c) {
    RegistrationRules.checkClique(c);
    SiteSync shared = sharing();
    if (shared != null) {
      shared.putClique(c); // outside the lock; other nameservers hear of it from the registry
    }
    synchronized (this) {
      commit(List.of(new CliquePut(c)), true);
    }
    return c;
  }

  public boolean deleteClique(String name) {
    RegistrationRules.checkName(name);
    SiteSync shared = sharing();
    boolean removed = shared != null && shared.removeClique(name);
    synchronized (this) {
      if (!cliques.containsKey(name)) {
        return removed;
      }
      commit(List.of(new CliqueDeleted(name)), true);
      return true;
    }
  }

  private synchronized SiteSync sharing() {
    return site;
  }

  /** Clique definitions, sorted by name; those including {@code host} unless it is empty. */
  public synchronized List<Clique> cliques(String host) {
    return cliques(host, "", Integer.MAX_VALUE).items();
  }

  /** One page of {@link #cliques(String)}, after {@code pageToken} (empty: the first). */
  public synchronized Page<Clique> cliques(String host, String pageToken, int pageSize) {
    checkHost(host);
    boolean all = host == null || host.isEmpty();
    return Page.of(
        cliques, pageToken, pageSize, c -> all || c.getMembersList().contains(host), c -> c);
  }

  private static void checkHost(String host) {
    if (host != null && !host.isEmpty()) {
      String p = SeriesName.nameProblem("host", host);
      if (p != null) {
        throw new IllegalArgumentException(p);
      }
    }
  }

  /**
   * Gives {@code sink} the cliques including {@code host} now, and again after every change to
   * them, until the returned handle is closed. The sink runs under this object's lock and must not
   * block.
   */
  public synchronized AutoCloseable watchCliques(String host, Consumer<List<Clique>> sink) {
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("host is empty");
    }
    checkHost(host);
    cliqueWatchers.computeIfAbsent(host, h -> new ArrayList<>()).add(sink);
    sink.accept(cliques(host));
    return () -> {
      synchronized (this) {
        List<Consumer<List<Clique>>> sinks = cliqueWatchers.get(host);
        if (sinks != null && sinks.remove(sink) && sinks.isEmpty()) {
          cliqueWatchers.remove(host);
        }
      }
    };
  }

  @Override
  public synchronized void close() throws IOException {
    journal.compact(stateEntries());
    journal.close();
  }
}
