package org.netweather.nameserver;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.Registration;
import org.netweather.nameserver.JournalEntry.Registered;
import org.netweather.nameserver.SharedRecords.Shared;
import org.netweather.registry.DaemonRecord;
import org.netweather.registry.HostRecord;
import org.netweather.registry.Member;
import org.netweather.registry.Registry;
import org.netweather.registry.RegistryEvent;
import org.netweather.registry.RegistryException;
import org.netweather.registry.RegistryListener;
import org.netweather.registry.RegistryState;
import org.netweather.registry.StaleVersionException;
import org.netweather.registry.Versioned;
import org.netweather.runtime.NamedThreadFactory;
import org.netweather.runtime.Statuses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link Nameserver} in step with the site's registry when several nameservers serve one
 * site side by side: the registry holds every registration and clique, each nameserver a copy in
 * memory that it serves every call from, and each lease is held (renewed, timed out) by one
 * nameserver only.
 *
 * <ul>
 *   <li><b>Writes.</b> Register, Unregister, PutClique and DeleteClique write the registry first
 *       ({@link #write} and the like), then change the copy. A write waits through a ZooKeeper
 *       leader change; if the registry stays out of reach past its bound it fails UNAVAILABLE and
 *       the caller tries again (or another nameserver).
 *   <li><b>Leases.</b> A heartbeat changes memory only. Which leases a nameserver holds is written,
 *       per scope (the daemons, or one cluster's hosts), as a line of that scope's live set, and
 *       only when the set changes (at most once per {@link #FLUSH_DELAY} per scope). A daemon that
 *       heartbeats at a nameserver not holding its lease is adopted there at once.
 *   <li><b>A nameserver gone.</b> When a nameserver leaves the group {@value #GROUP} (its ZooKeeper
 *       session ended), the others adopt every lease its lines list, each with one TTL of grace, so
 *       its daemons have a whole TTL to reach one of them; a nameserver restarted within its
 *       session adopts its own former lines the same way.
 *   <li><b>Records nobody holds</b> (their lease expired, their nameserver gone with no one left to
 *       adopt) are removed from the registry, one TTL after their registration at the earliest: by
 *       the nameserver that granted the lease, or by whichever sees them first once that one is
 *       gone. Never by another while the granting one is alive: that one's live set, published on
 *       this same thread, can lag by more than a TTL on a loaded machine, and a live lease whose
 *       record was removed is dropped at the next read, its heartbeats answered NOT_FOUND.
 * </ul>
 *
 * <p>Every change in the registry is told to this nameserver as an event; the scope it touches is
 * read again on one thread of its own (and everything every {@link #FULL_EVERY}, to catch what an
 * event could not say), so that neither heartbeats nor the registry's own thread ever wait.
 *
 * <p>While the registry is SUSPENDED the copy is served as it is and leases go on; writes wait.
 * When the session was LOST (this nameserver was cut off past the session timeout), the others have
 * adopted its leases; on reconnecting it reads everything again and publishes its own lines.
 */
final class SiteSync implements RegistryListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SiteSync.class);

  /** The registry group of the nameservers serving the site, by registration name. */
  static final String GROUP = "nameservers";

  static final Duration FLUSH_DELAY = Duration.ofMillis(200);
  static final Duration FULL_EVERY = Duration.ofSeconds(30);
  private static final Duration RETRY = Duration.ofSeconds(1);
  private static final String FULL = "*";
  private static final String CLIQUES = "cliques";

  private final Registry registry;
  private final String self;
  private final Nameserver ns;
  private final ScheduledExecutorService thread;
  private final Set<String> pending = new LinkedHashSet<>();
  private final Set<String> dirty = new LinkedHashSet<>();
  private boolean syncQueued;
  private boolean flushQueued;

  /** Until the first full read: this nameserver's former lines are adopted, as after a restart. */
  private boolean firstRead = true;

  private AutoCloseable watch;

  /**
   * Shares {@code ns} through {@code registry} as the nameserver {@code self} (its registration
   * name, which must be its member id in {@value #GROUP}); reads the registry once before
   * returning.
   */
  static SiteSync start(Registry registry, String self, Nameserver ns) {
    SiteSync sync = new SiteSync(registry, self, ns);
    for (Clique c : ns.share(sync)) {
      if (registry.cliques().stream().noneMatch(r -> r.name().equals(c.getName()))) {
        registry.putClique(SharedRecords.clique(c)); // a site moving from its journal
      }
    }
    sync.watch = registry.watch(sync);
    sync.readAll();
    sync.thread.scheduleWithFixedDelay(
        () -> sync.queue(FULL),
        FULL_EVERY.toMillis(),
        FULL_EVERY.toMillis(),
        TimeUnit.MILLISECONDS);
    return sync;
  }

  private SiteSync(Registry registry, String self, Nameserver ns) {
    this.registry = registry;
    this.self = self;
    this.ns = ns;
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("registry-sync"));
    t.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.thread = t;
  }

  // ---- writes, on the caller's thread ----

  void write(Registered entry) {
    Registration r = entry.registration();
    writing(
        "register " + r.getName(),
        () -> {
          if (SharedRecords.SENSOR_KIND.equals(r.getKind())) {
            registry.putHost(SharedRecords.host(entry, self));
          } else {
            registry.putDaemon(SharedRecords.daemon(entry, self));
          }
        });
  }

  void remove(Registration r) {
    writing(
        "unregister " + r.getName(),
        () -> {
          if (SharedRecords.SENSOR_KIND.equals(r.getKind())) {
            registry.removeHost(SharedRecords.cluster(r), r.getName());
          } else {
            registry.removeDaemon(r.getName());
          }
        });
  }

  void putClique(Clique c) {
    writing("put clique " + c.getName(), () -> registry.putClique(SharedRecords.clique(c)));
  }

  boolean removeClique(String name) {
    boolean[] removed = new boolean[1];
    writing("delete clique " + name, () -> removed[0] = registry.removeClique(name));
    return removed[0];
  }

  private static void writing(String what, Runnable write) {
    try {
      write.run();
    } catch (RegistryException e) {
      throw Statuses.unavailable(
          "cannot "
              + what
              + ": the site's registry is out of reach ("
              + e.getMessage()
              + "); try again, or another nameserver");
    }
  }

  /** The live set of {@code scope} held here changed: publish it soon. */
  void dirty(String scope) {
    synchronized (this) {
      dirty.add(scope);
      if (flushQueued) {
        return;
      }
      flushQueued = true;
    }
    schedule(this::flush, FLUSH_DELAY);
  }

  // ---- reads, on the sync thread ----

  @Override
  public void onChange(RegistryEvent e) {
    switch (e.area()) {
      case DAEMON -> queue(SharedRecords.DAEMONS);
      case HOSTS -> queue(SharedRecords.HOSTS + e.key());
      case CLIQUE -> queue(CLIQUES);
      case VALUE -> {
        if (e.key().startsWith("live/")) {
          queue(e.key().substring("live/".length()));
        }
      }
      case MEMBER -> {
        if (e.key().startsWith(GROUP + "/")) {
          queue(FULL);
        }
      }
    }
  }

  @Override
  public void onState(RegistryState state) {
    if (state == RegistryState.LOST) {
      log.warn(
          "{}: the registry session expired; the other nameservers adopt its leases meanwhile,"
              + " and it reads the site again and republishes its own on reconnecting",
          self);
    } else if (state == RegistryState.CONNECTED) {
      // Back after a break: read everything again and publish this nameserver's lines (they
      // were dropped by the others if the session was lost). Publishing what is already there
      // writes nothing.
      queue(FULL);
      schedule(
          () -> {
            Set<String> scopes = ns.knownScopes(); // not under this object's lock
            scopes.add(SharedRecords.DAEMONS);
            scopes.forEach(this::dirty);
          },
          Duration.ZERO);
    }
  }

  private void queue(String what) {
    synchronized (this) {
      pending.add(what);
      if (syncQueued) {
        return;
      }
      syncQueued = true;
    }
    schedule(this::sync, Duration.ZERO);
  }

  private void schedule(Runnable task, Duration delay) {
    try {
      thread.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing
    }
  }

  private void sync() {
    List<String> todo;
    synchronized (this) {
      todo = List.copyOf(pending);
      pending.clear();
      syncQueued = false;
    }
    try {
      if (todo.contains(FULL)) {
        readAll();
        return;
      }
      Set<String> members = members();
      for (String what : todo) {
        if (what.equals(CLIQUES)) {
          readCliques();
        } else {
          readScope(what, members, Set.of());
        }
      }
    } catch (RegistryException | IllegalArgumentException e) {
      log.warn("{}: cannot read the site's registry ({}); trying again", self, e.getMessage());
      synchronized (this) {
        pending.addAll(todo);
      }
      schedule(() -> queue(FULL), RETRY);
    }
  }

  /** Reads every scope and the cliques. */
  private void readAll() {
    Set<String> members = members();
    Set<String> scopes = new LinkedHashSet<>();
    scopes.add(SharedRecords.DAEMONS);
    registry.clusters().forEach(c -> scopes.add(SharedRecords.HOSTS + c));
    scopes.addAll(ns.knownScopes());
    Set<String> adoptOwn = firstRead ? Set.of(self) : Set.of();
    for (String scope : scopes) {
      readScope(scope, members, adoptOwn);
    }
    readCliques();
    firstRead = false;
  }

  private void readCliques() {
    ns.cliquesFromRegistry(registry.cliques().stream().map(SharedRecords::clique).toList());
  }

  private Set<String> members() {
    Set<String> ids = new HashSet<>();
    for (Member m : registry.members(GROUP)) {
      ids.add(m.id());
    }
    return ids;
  }

  private void readScope(String scope, Set<String> members, Set<String> adoptFrom) {
    // Before reading: a lease granted here later may be missing from what the read answers.
    long grantsBefore = ns.grantsSoFar();
    Map<String, Shared> records = new HashMap<>();
    if (scope.equals(SharedRecords.DAEMONS)) {
      for (DaemonRecord d : registry.daemons()) {
        records.put(d.name(), SharedRecords.read(d));
      }
    } else {
      for (HostRecord h : registry.hosts(scope.substring(SharedRecords.HOSTS.length()))) {
        records.put(h.host(), SharedRecords.read(h));
      }
    }
    Map<String, String> holders = new HashMap<>();
    Set<String> orphans = new HashSet<>();
    Set<String> goneNameservers = new HashSet<>();
    for (var line : live(scope).entrySet()) {
      String holder = line.getKey();
      if (holder.equals(self) ? adoptFrom.contains(self) : !members.contains(holder)) {
        orphans.addAll(line.getValue());
        if (!holder.equals(self)) {
          goneNameservers.add(holder);
        }
      } else if (!holder.equals(self)) {
        line.getValue().forEach(n -> holders.putIfAbsent(n, holder));
      }
    }
    // A record no line lists yet (its nameserver died before publishing, or is about to publish)
    // is judged by the nameserver that wrote it: one that is gone leaves it to be adopted.
    for (Shared rec : records.values()) {
      String by = rec.by();
      if (!by.isEmpty()
          && !holders.containsKey(rec.name())
          && (by.equals(self) ? adoptFrom.contains(self) : !members.contains(by))) {
        orphans.add(rec.name());
        if (!by.equals(self)) {
          goneNameservers.add(by);
        }
      }
    }
    Set<String> grantedElsewhere = new HashSet<>();
    for (Shared rec : records.values()) {
      if (!rec.by().equals(self) && members.contains(rec.by())) {
        grantedElsewhere.add(rec.name());
      }
    }
    List<Registered> unheld = new java.util.ArrayList<>();
    for (String dead : goneNameservers) {
      // A nameserver that is gone is not adopted with its leases: its own record goes now.
      orphans.remove(dead);
      Shared own = records.remove(dead);
      if (own != null) {
        unheld.add(own.lease());
      }
    }
    Nameserver.Reconciled r =
        ns.reconcile(scope, records, holders, orphans, grantedElsewhere, grantsBefore);
    unheld.addAll(r.unheld());
    boolean gone = !goneNameservers.isEmpty();
    if (r.ownSetChanged() || gone) {
      dirty(scope); // also drops the lines of nameservers that are gone
    }
    for (Registered u : unheld) {
      try {
        remove(u.registration());
      } catch (RuntimeException e) {
        log.warn("{}: cannot remove {} nobody holds: {}", self, u.registration().getName(), e);
      }
    }
  }

  private Map<String, Set<String>> live(String scope) {
    Optional<Versioned> v = registry.value(SharedRecords.liveKey(scope));
    return v.map(x -> SharedRecords.parseLive(x.data())).orElseGet(TreeMap::new);
  }

  /** Writes this nameserver's line of every dirty scope, dropping the lines of those gone. */
  private void flush() {
    List<String> todo;
    synchronized (this) {
      todo = List.copyOf(dirty);
      dirty.clear();
      flushQueued = false;
    }
    Set<String> members;
    try {
      members = members();
    } catch (RegistryException e) {
      retryFlush(todo, e);
      return;
    }
    for (int i = 0; i < todo.size(); i++) {
      try {
        publish(todo.get(i), members);
      } catch (RegistryException e) {
        retryFlush(todo.subList(i, todo.size()), e);
        return;
      }
    }
  }

  private void retryFlush(List<String> scopes, RegistryException e) {
    log.warn("{}: cannot publish its leases yet ({}); trying again", self, e.getMessage());
    synchronized (this) {
      dirty.addAll(scopes);
      flushQueued = true;
    }
    schedule(this::flush, RETRY);
  }

  private void publish(String scope, Set<String> members) {
    String key = SharedRecords.liveKey(scope);
    while (true) {
      Optional<Versioned> v = registry.value(key);
      Map<String, Set<String>> lines =
          v.map(x -> SharedRecords.parseLive(x.data())).orElseGet(TreeMap::new);
      Map<String, Set<String>> next = new TreeMap<>(lines);
      next.keySet().removeIf(holder -> !holder.equals(self) && !members.contains(holder));
      next.put(self, ns.heldHere(scope));
      next.values().removeIf(Set::isEmpty);
      if (next.equals(lines) && v.isPresent()) {
        return;
      }
      if (next.isEmpty() && v.isEmpty()) {
        return;
      }
      try {
        registry.compareAndSet(
            key, SharedRecords.writeLive(next), v.map(Versioned::version).orElse(Versioned.ABSENT));
        return;
      } catch (StaleVersionException e) {
        // another nameserver wrote its line first: read again
      }
    }
  }

  /**
   * Publishes what is still to publish (so that the others know which leases to adopt), then stops
   * reading and publishing; the registry itself is closed by its owner.
   */
  @Override
  public void close() throws Exception {
    if (watch != null) {
      watch.close();
    }
    try {
      thread.execute(this::flush); // before the delayed tasks, which shutdown() drops
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // already stopping
    }
    thread.shutdown();
    if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
      thread.shutdownNow();
    }
  }
}
