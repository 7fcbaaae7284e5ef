package org.netweather.registry;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.netweather.registry.RegistryEvent.Area;

/**
 * The registry of a site on one machine: in this process, records and values kept in one file under
 * the data directory, no engine to run. Each handle is one session: {@link #open} gives the first,
 * {@link #peer} another on the same state (as a second process would have on a shared registry),
 * and a handle's members leave when it closes. Closing the handle {@link #open} gave closes the
 * state.
 *
 * <pre>{@code
 * try (LocalRegistry registry = LocalRegistry.open(Path.of("nws-data/registry"))) {
 *   registry.putClique(new CliqueRecord("c1", List.of("a", "b"), 60, List.of(), Map.of()));
 * }
 * }</pre>
 */
public final class LocalRegistry implements Registry {
  private final LocalStore store;
  private final boolean owner;
  private final List<RegistryListener> listeners = new CopyOnWriteArrayList<>();

  /** This handle's memberships, by group/id, made again under each new session. */
  private final Map<String, LocalPresence> presences = new LinkedHashMap<>();

  private long session;
  private boolean closed;

  private LocalRegistry(LocalStore store, boolean owner) {
    this.store = store;
    this.owner = owner;
    this.session = store.newSession();
    store.handles.add(this);
  }

  /** Opens (or creates) the registry kept in {@code dir}. */
  public static LocalRegistry open(Path dir) throws IOException {
    return new LocalRegistry(LocalStore.open(dir), true);
  }

  /** Another handle, with a session of its own, on the same state. */
  public LocalRegistry peer() {
    synchronized (store) {
      checkOpen();
      return new LocalRegistry(store, false);
    }
  }

  /**
   * Ends this handle's session as an expiry on ZooKeeper would: its members leave, its listeners
   * are told {@link RegistryState#LOST}, then the members join again under a new session and the
   * listeners are told {@link RegistryState#CONNECTED}. For tests of what depends on membership.
   */
  public void loseSession() {
    synchronized (store) {
      checkOpen();
      for (LocalPresence p : presences.values()) {
        leave(p.group, p.id, session);
      }
      store.publishState(this, RegistryState.LOST);
      session = store.newSession();
      for (LocalPresence p : presences.values()) {
        enter(p);
      }
      store.publishState(this, RegistryState.CONNECTED);
    }
  }

  @Override
  public void putDaemon(DaemonRecord daemon) {
    synchronized (store) {
      checkOpen();
      store.daemons.put(daemon.name(), daemon);
      store.save();
      store.publish(new RegistryEvent(Area.DAEMON, daemon.name()));
    }
  }

  @Override
  public boolean removeDaemon(String name) {
    synchronized (store) {
      checkOpen();
      if (store.daemons.remove(name) == null) {
        return false;
      }
      store.save();
      store.publish(new RegistryEvent(Area.DAEMON, name));
      return true;
    }
  }

  @Override
  public Optional<DaemonRecord> daemon(String name) {
    synchronized (store) {
      return Optional.ofNullable(store.daemons.get(name));
    }
  }

  @Override
  public List<DaemonRecord> daemons() {
    synchronized (store) {
      return List.copyOf(store.daemons.values());
    }
  }

  @Override
  public void putHost(HostRecord host) {
    synchronized (store) {
      checkOpen();
      store.hosts.computeIfAbsent(host.cluster(), c -> new TreeMap<>()).put(host.host(), host);
      store.save();
      store.publish(new RegistryEvent(Area.HOSTS, host.cluster()));
    }
  }

  @Override
  public boolean removeHost(String cluster, String host) {
    synchronized (store) {
      checkOpen();
      TreeMap<String, HostRecord> byHost = store.hosts.get(cluster);
      if (byHost == null || byHost.remove(host) == null) {
        return false;
      }
      if (byHost.isEmpty()) {
        store.hosts.remove(cluster);
      }
      store.save();
      store.publish(new RegistryEvent(Area.HOSTS, cluster));
      return true;
    }
  }

  @Override
  public List<HostRecord> hosts(String cluster) {
    synchronized (store) {
      TreeMap<String, HostRecord> byHost = store.hosts.get(cluster);
      return byHost == null ? List.of() : List.copyOf(byHost.values());
    }
  }

  @Override
  public Set<String> clusters() {
    synchronized (store) {
      return new TreeSet<>(store.hosts.keySet());
    }
  }

  @Override
  public void putClique(CliqueRecord clique) {
    synchronized (store) {
      checkOpen();
      store.cliques.put(clique.name(), clique);
      store.save();
      store.publish(new RegistryEvent(Area.CLIQUE, clique.name()));
    }
  }

  @Override
  public boolean removeClique(String name) {
    synchronized (store) {
      checkOpen();
      if (store.cliques.remove(name) == null) {
        return false;
      }
      store.save();
      store.publish(new RegistryEvent(Area.CLIQUE, name));
      return true;
    }
  }

  @Override
  public List<CliqueRecord> cliques() {
    synchronized (store) {
      return List.copyOf(store.cliques.values());
    }
  }

  @Override
  public Optional<Versioned> value(String key) {
    Names.checkKey(key);
    synchronized (store) {
      return Optional.ofNullable(store.values.get(key));
    }
  }

  @Override
  public int compareAndSet(String key, byte[] data, int expectedVersion) {
    Names.checkKey(key);
    synchronized (store) {
      checkOpen();
      Versioned now = store.values.get(key);
      int current = now == null ? Versioned.ABSENT : now.version();
      if (current != expectedVersion) {
        throw new StaleVersionException(key, expectedVersion);
      }
      // Versions count from 0 at creation, as ZooKeeper's do.
      int next = expectedVersion + 1;
      store.values.put(key, new Versioned(data, next));
      store.save();
      store.publish(new RegistryEvent(Area.VALUE, key));
      return next;
    }
  }

  @Override
  public Presence join(String group, String id, Map<String, String> data) {
    Names.check("group", group);
    Names.check("member id", id);
    synchronized (store) {
      checkOpen();
      String key = group + "/" + id;
      if (presences.containsKey(key)) {
        throw new IllegalStateException("already a member of " + group + " as " + id);
      }
      LocalPresence p = new LocalPresence(group, id, Map.copyOf(data));
      presences.put(key, p);
      enter(p);
      return p;
    }
  }

  @Override
  public List<Member> members(String group) {
    synchronized (store) {
      TreeMap<String, Member> byId = store.members.get(group);
      return byId == null ? List.of() : List.copyOf(byId.values());
    }
  }

  @Override
  public AutoCloseable watch(RegistryListener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  @Override
  public RegistryState state() {
    return RegistryState.CONNECTED;
  }

  @Override
  public void close() {
    synchronized (store) {
      if (closed) {
        return;
      }
      closed = true;
      for (LocalPresence p : new ArrayList<>(presences.values())) {
        leave(p.group, p.id, session);
      }
      presences.clear();
      store.handles.remove(this);
      if (owner) {
        for (LocalRegistry peer : List.copyOf(store.handles)) {
          peer.close();
        }
        store.close();
      }
    }
  }

  void deliver(RegistryEvent event) {
    for (RegistryListener l : listeners) {
      l.onChange(event);
    }
  }

  void deliverState(RegistryState state) {
    for (RegistryListener l : listeners) {
      l.onState(state);
    }
  }

  private void enter(LocalPresence p) {
    store
        .members
        .computeIfAbsent(p.group, g -> new TreeMap<>())
        .put(p.id, new Member(p.group, p.id, session, p.data));
    store.publish(new RegistryEvent(Area.MEMBER, p.group + "/" + p.id));
  }

  /** Removes the member if this session still holds it (a later joiner may have taken it over). */
  private void leave(String group, String id, long ofSession) {
    TreeMap<String, Member> byId = store.members.get(group);
    Member m = byId == null ? null : byId.get(id);
    if (m != null && m.session() == ofSession) {
      byId.remove(id);
      if (byId.isEmpty()) {
        store.members.remove(group);
      }
      store.publish(new RegistryEvent(Area.MEMBER, group + "/" + id));
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the registry is closed");
    }
  }

  private final class LocalPresence implements Presence {
    final String group;
    final String id;
    Map<String, String> data; // guarded by store

    LocalPresence(String group, String id, Map<String, String> data) {
      this.group = group;
      this.id = id;
      this.data = data;
    }

    @Override
    public String group() {
      return group;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public long session() {
      synchronized (store) {
        return session;
      }
    }

    @Override
    public void update(Map<String, String> newData) {
      synchronized (store) {
        checkOpen();
        if (presences.get(group + "/" + id) != this) {
          throw new IllegalStateException("no longer a member of " + group + " as " + id);
        }
        data = Map.copyOf(newData);
        enter(this);
      }
    }

    @Override
    public void close() {
      synchronized (store) {
        if (presences.remove(group + "/" + id) == this && !closed) {
          leave(group, id, session);
        }
      }
    }
  }
}
