package org.netweather.registry;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What every handle of one {@link LocalRegistry} shares: the records, the values and the members,
 * the file they are kept in, and the one thread that tells listeners. Records and values are
 * written whole to {@code registry.json} (a new file forced, then renamed over the old one) before
 * a change is answered: the state is small (no sensors, no series) and changes rarely. Members are
 * never written: they live with their sessions, which end with the process.
 *
 * <p>Thread-safety: callers hold this object's lock.
 */
final class LocalStore {
  static final String FILE = "registry.json";

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

  /** What the file holds. */
  record Snapshot(
      Map<String, DaemonRecord> daemons,
      Map<String, Map<String, HostRecord>> hosts,
      Map<String, CliqueRecord> cliques,
      Map<String, Versioned> values) {}

  private final Path file;
  final TreeMap<String, DaemonRecord> daemons = new TreeMap<>();
  final TreeMap<String, TreeMap<String, HostRecord>> hosts = new TreeMap<>();
  final TreeMap<String, CliqueRecord> cliques = new TreeMap<>();
  final TreeMap<String, Versioned> values = new TreeMap<>();

  /** group → id → member. */
  final TreeMap<String, TreeMap<String, Member>> members = new TreeMap<>();

  final List<LocalRegistry> handles = new ArrayList<>();
  private final ExecutorService events;
  private long nextSession = 1;

  private LocalStore(Path file) {
    this.file = file;
    this.events =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "registry-events");
              t.setDaemon(true);
              return t;
            });
  }

  static LocalStore open(Path dir) throws IOException {
    Files.createDirectories(dir);
    LocalStore store = new LocalStore(dir.resolve(FILE));
    if (Files.exists(store.file)) {
      Snapshot s;
      try {
        s = JSON.readValue(store.file.toFile(), Snapshot.class);
      } catch (IOException e) {
        throw new IOException(
            "cannot read the registry in " + store.file + ": " + e.getMessage(), e);
      }
      store.daemons.putAll(s.daemons());
      s.hosts().forEach((cluster, byHost) -> store.hosts.put(cluster, new TreeMap<>(byHost)));
      store.cliques.putAll(s.cliques());
      store.values.putAll(s.values());
    }
    return store;
  }

  long newSession() {
    return nextSession++;
  }

  /** Writes the records and values, forced, before the change is answered. */
  void save() {
    Path tmp = file.resolveSibling(FILE + ".tmp");
    try {
      byte[] bytes =
          JSON.writerWithDefaultPrettyPrinter()
              .writeValueAsBytes(new Snapshot(daemons, new TreeMap<>(hosts), cliques, values));
      try (FileChannel out =
          FileChannel.open(
              tmp,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          out.write(buf);
        }
        out.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      try (FileChannel d = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
        d.force(true);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the registry to " + file, e);
    }
  }

  /** Tells every handle's listeners, in order, on the events thread. */
  void publish(RegistryEvent event) {
    List<LocalRegistry> to = List.copyOf(handles);
    events.execute(() -> to.forEach(h -> h.deliver(event)));
  }

  void publishState(LocalRegistry handle, RegistryState state) {
    events.execute(() -> handle.deliverState(state));
  }

  void close() {
    events.shutdown();
    try {
      events.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
