package org.netweather.nameserver;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.Registration;
import org.netweather.nameserver.JournalEntry.CliqueDeleted;
import org.netweather.nameserver.JournalEntry.CliquePut;
import org.netweather.nameserver.JournalEntry.Registered;
import org.netweather.nameserver.JournalEntry.Unregistered;
import org.netweather.registry.CliqueRecord;
import org.netweather.registry.DaemonRecord;
import org.netweather.registry.HostRecord;
import org.netweather.registry.Registry;
import org.netweather.registry.RegistryException;
import org.netweather.runtime.NamedThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the nameserver's registrations and cliques into the site's shared {@link Registry}, as the
 * journal takes them: a sensor's registration becomes a host record of its cluster (attribute
 * {@code cluster}, else {@value #DEFAULT_CLUSTER}), any other daemon's a daemon record; cliques are
 * copied whole. Leases, renewals and the series directory stay in this nameserver only.
 *
 * <p>Writes go out on a thread of their own, in journal order, so that a registry that is slow or
 * unreachable (a ZooKeeper leader change) never holds the nameserver's lock or its heartbeats; a
 * write that fails is logged at WARN and the journal stays this nameserver's record.
 */
final class RegistryMirror implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RegistryMirror.class);
  static final String DEFAULT_CLUSTER = "default";
  private static final int QUEUE = 100_000;

  private final Registry registry;
  private final ExecutorService writer;

  /** Registration name → its cluster if it is a host record, "" if a daemon record. */
  private final Map<String, String> placed = new HashMap<>();

  RegistryMirror(Registry registry) {
    this.registry = registry;
    this.writer =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(QUEUE),
            new NamedThreadFactory("registry-mirror"));
  }

  /** Called by the nameserver, under its lock, with the changes it has just made durable. */
  void accept(List<? extends JournalEntry> entries) {
    if (writer.isShutdown()) {
      return; // stopping: the nameserver's last renewals stay in its journal
    }
    List<? extends JournalEntry> copy = List.copyOf(entries);
    try {
      writer.execute(() -> copy.forEach(this::write));
    } catch (RejectedExecutionException e) {
      log.warn("the registry is {} changes behind: dropped {} of them", QUEUE, copy.size());
    }
  }

  private void write(JournalEntry e) {
    try {
      if (e instanceof Registered r) {
        Registration reg = r.registration();
        if (reg.getKind().equals("sensor")) {
          String cluster = reg.getAttributesOrDefault("cluster", DEFAULT_CLUSTER);
          registry.putHost(
              new HostRecord(cluster, reg.getName(), reg.getAddress(), reg.getAttributesMap()));
          placed.put(reg.getName(), cluster);
        } else {
          registry.putDaemon(
              new DaemonRecord(
                  reg.getName(), reg.getKind(), reg.getAddress(), reg.getAttributesMap()));
          placed.put(reg.getName(), "");
        }
      } else if (e instanceof Unregistered u) {
        String cluster = placed.remove(u.name());
        if (cluster == null || cluster.isEmpty()) {
          registry.removeDaemon(u.name());
        } else {
          registry.removeHost(cluster, u.name());
        }
      } else if (e instanceof CliquePut p) {
        Clique c = p.clique();
        registry.putClique(
            new CliqueRecord(
                c.getName(),
                c.getMembersList(),
                c.getPeriodSeconds(),
                c.getSkillsList(),
                c.getOptionsMap()));
      } else if (e instanceof CliqueDeleted d) {
        registry.removeClique(d.name());
      }
    } catch (RegistryException | IllegalArgumentException ex) {
      log.warn("cannot copy {} to the registry: {}", e.getClass().getSimpleName(), ex.getMessage());
    }
  }

  /** Lets the writes queued go out (for a few seconds at most), then stops. */
  @Override
  public void close() throws InterruptedException {
    writer.shutdown();
    if (!writer.awaitTermination(5, TimeUnit.SECONDS)) {
      log.warn("stopped with changes not yet copied to the registry");
      writer.shutdownNow();
    }
  }
}
