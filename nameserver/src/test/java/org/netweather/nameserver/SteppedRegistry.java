package org.netweather.nameserver;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.netweather.registry.CliqueRecord;
import org.netweather.registry.DaemonRecord;
import org.netweather.registry.HostRecord;
import org.netweather.registry.Member;
import org.netweather.registry.Presence;
import org.netweather.registry.Registry;
import org.netweather.registry.RegistryListener;
import org.netweather.registry.RegistryState;
import org.netweather.registry.Versioned;

/**
 * A site's registry with steps a test puts between its calls: before a host record is written,
 * after a cluster is read (before the answer is returned), after the daemon records are read. A
 * test orders a write and a read with them as a loaded ensemble may, and knows when a nameserver's
 * read of the registry has got past a point (the nameserver reads on one thread, in order).
 */
final class SteppedRegistry implements Registry {
  private final Registry registry;
  final Queue<Runnable> afterHosts = new ConcurrentLinkedQueue<>();
  final Queue<Runnable> afterDaemons = new ConcurrentLinkedQueue<>();
  volatile Runnable beforePutHost = () -> {};
  volatile RegistryListener listener;

  SteppedRegistry(Registry registry) {
    this.registry = registry;
  }

  @Override
  public void putHost(HostRecord host) {
    beforePutHost.run();
    registry.putHost(host);
  }

  @Override
  public List<HostRecord> hosts(String cluster) {
    List<HostRecord> read = registry.hosts(cluster);
    Runnable step = afterHosts.poll();
    if (step != null) {
      step.run();
    }
    return read;
  }

  @Override
  public AutoCloseable watch(RegistryListener l) {
    listener = l;
    return registry.watch(l);
  }

  @Override
  public void putDaemon(DaemonRecord daemon) {
    registry.putDaemon(daemon);
  }

  @Override
  public boolean removeDaemon(String name) {
    return registry.removeDaemon(name);
  }

  @Override
  public Optional<DaemonRecord> daemon(String name) {
    return registry.daemon(name);
  }

  @Override
  public List<DaemonRecord> daemons() {
    List<DaemonRecord> read = registry.daemons();
    Runnable step = afterDaemons.poll();
    if (step != null) {
      step.run();
    }
    return read;
  }

  @Override
  public boolean removeHost(String cluster, String host) {
    return registry.removeHost(cluster, host);
  }

  @Override
  public Set<String> clusters() {
    return registry.clusters();
  }

  @Override
  public void putClique(CliqueRecord clique) {
    registry.putClique(clique);
  }

  @Override
  public boolean removeClique(String name) {
    return registry.removeClique(name);
  }

  @Override
  public List<CliqueRecord> cliques() {
    return registry.cliques();
  }

  @Override
  public Optional<Versioned> value(String key) {
    return registry.value(key);
  }

  @Override
  public int compareAndSet(String key, byte[] data, int expectedVersion) {
    return registry.compareAndSet(key, data, expectedVersion);
  }

  @Override
  public Presence join(String group, String id, Map<String, String> data) {
    return registry.join(group, id, data);
  }

  @Override
  public List<Member> members(String group) {
    return registry.members(group);
  }

  @Override
  public RegistryState state() {
    return registry.state();
  }

  @Override
  public void close() {
    // the registry underneath is closed by whoever opened it
  }
}
