package org.netweather.memoryhost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.netweather.api.v1.ConsolidatedPoint;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.Resolution;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.model.SeriesPattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory-host's storage: per series, the recent raw points ({@link RawSeries}) and a
 * consolidated {@link Archive}; one {@link WriteAheadLog} for durability.
 *
 * <p>All writes go through one writer thread. It drains every append waiting in its queue,
 * drops points whose (series, timestamp) is already stored, writes the rest to the log and
 * forces it once for the whole group, then applies them to the series and archives, completes
 * the appends and hands the new points to the {@link WatchHub}. An append is therefore on disk
 * before it is acknowledged, and retrying one adds nothing.
 *
 * <p>Reads run on the caller's thread against the series' own locks.
 */
public final class MeasurementStore implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MeasurementStore.class);
  private static final long CHECKPOINT_BYTES = 32L << 20;
  private static final long CHECKPOINT_MS = 30_000;
  private static final int QUEUE = 4096;

  private final Path seriesDir;
  private final int rawCapacity;
  private final Clock clock;
  private final Archive.Factory archives;
  private final Map<String, Entry> series = new ConcurrentHashMap<>();
  private final WatchHub hub;
  private final WriteAheadLog wal;
  private final MemoryMetrics metrics;
  private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(QUEUE);
  private final Thread writer;
  private volatile boolean closing;
  private long lastCheckpointMs;

  /** How an append went. */
  public record Result(long stored, long duplicates) {}

  private record Entry(RawSeries raw, Archive archive) {}

  private record Pending(List<SeriesPoints> batches, CompletableFuture<Result> done) {}

  private MeasurementStore(Path dir, int rawCapacity, Clock clock, Archive.Factory archives,
      Executor watchExecutor, MemoryMetrics metrics) throws IOException {
    this.seriesDir = dir.resolve("series");
    this.metrics = metrics;
    this.rawCapacity = rawCapacity;
    this.clock = clock;
    this.archives = archives;
    this.hub = new WatchHub(watchExecutor);
    Files.createDirectories(seriesDir);
    loadSeries();
    this.wal = WriteAheadLog.open(dir.resolve("wal.log"), this::replay);
    catchUpArchives();
    checkpoint();
    this.writer = new Thread(this::writeLoop, "memory-writer");
    this.writer.setDaemon(true);
    this.writer.start();
  }

  /**
   * Opens the store in {@code dir}, recovering whatever an earlier run left.
   *
   * @param rawCapacity raw points kept per series
   * @param watchExecutor delivers watch messages; not owned
   */
  public static MeasurementStore open(Path dir, int rawCapacity, Clock clock,
      Executor watchExecutor) throws IOException {
    return open(dir, rawCapacity, clock, watchExecutor, MemoryMetrics.NONE);
  }

  /** As above, recording appends and log commits in {@code metrics} (the daemon's). */
  static MeasurementStore open(Path dir, int rawCapacity, Clock clock, Executor watchExecutor,
      MemoryMetrics metrics) throws IOException {
    return new MeasurementStore(dir, rawCapacity, clock, RrdArchive.factory(), watchExecutor,
        metrics);
  }

  private void loadSeries() throws IOException {
    try (Stream<Path> dirs = Files.list(seriesDir)) {
      for (Path d : (Iterable<Path>) dirs::iterator) {
        Path raw = d.resolve("raw.dat");
        if (!Files.exists(raw)) {
          continue;
        }
        RawSeries rs = RawSeries.open(raw, rawCapacity);
        series.put(rs.name(), new Entry(rs, archives.open(rs.name(), d)));
      }
    }
    log.info("loaded {} series from {}", series.size(), seriesDir);
  }

  private void replay(String name, long[] ts, double[] vs) throws IOException {
    Entry e = entry(name);
    long[] t = new long[ts.length];
    double[] v = new double[ts.length];
    int n = 0;
    for (int i = 0; i < ts.length; i++) {
      if (!e.raw().contains(ts[i])) {
        t[n] = ts[i];
        v[n] = vs[i];
        n++;
      }
    }
    e.raw().add(t, v, n);
  }

  private void catchUpArchives() throws IOException {
    for (Entry e : series.values()) {
      long last = e.archive().lastUpdateSeconds();
      RawSeries.Points p = e.raw().after(last * 1000 + 999, Integer.MAX_VALUE);
      for (int i = 0; i < p.size(); i++) {
        e.archive().update(p.times()[i], p.values()[i]);
      }
    }
  }

  private Entry entry(String name) throws IOException {
    Entry e = series.get(name);
    if (e == null) {
      Path d = seriesDir.resolve(fileName(name));
      RawSeries rs = RawSeries.create(name, d.resolve("raw.dat"), rawCapacity);
      e = new Entry(rs, archives.open(name, d));
      series.put(name, e);
    }
    return e;
  }

  /** A file-system-safe directory name for a series; names use only [A-Za-z0-9._:>-]. */
  static String fileName(String series) {
    return series.replace(':', '@').replace('>', '+');
  }

  /**
   * Queues a validated append. The future completes once the points are durable, or fails with
   * {@link RejectedExecutionException} if the queue is full or the store is closing.
   */
  public CompletableFuture<Result> append(List<SeriesPoints> batches) {
    CompletableFuture<Result> done = new CompletableFuture<>();
    if (closing || !queue.offer(new Pending(batches, done))) {
      done.completeExceptionally(new RejectedExecutionException(
          closing ? "memory-host is shutting down" : "write queue is full"));
    }
    return done;
  }

  /** Checks an append as the service must before queuing it. */
  public static int validate(List<SeriesPoints> batches, long nowMs) {
    return AppendValidator.validate(batches, nowMs);
  }

  private void writeLoop() {
    List<Pending> group = new ArrayList<>();
    while (true) {
      try {
        Pending first = queue.poll(1, TimeUnit.SECONDS);
        if (first == null) {
          if (closing) {
            return;
          }
          maybeCheckpoint();
          continue;
        }
        group.add(first);
        queue.drainTo(group, 511);
        writeGroup(group);
        maybeCheckpoint();
      } catch (InterruptedException e) {
        return;
      } catch (Throwable t) {
        log.error("write failed", t);
        for (Pending p : group) {
          p.done().completeExceptionally(t);
        }
      } finally {
        group.clear();
      }
    }
  }

  private void writeGroup(List<Pending> group) throws IOException {
    // Fresh points per series, in arrival order, without duplicates.
    Map<String, PointBuffer> fresh = new LinkedHashMap<>();
    long[] stored = new long[group.size()];
    long[] dups = new long[group.size()];
    long storedTotal = 0;
    for (int g = 0; g < group.size(); g++) {
      for (SeriesPoints sp : group.get(g).batches()) {
        Entry e = series.get(sp.getSeries());
        PointBuffer buf = fresh.computeIfAbsent(sp.getSeries(), k -> new PointBuffer());
        for (Measurement m : sp.getPointsList()) {
          long t = m.getTimestampMs();
          if ((e != null && e.raw().contains(t)) || !buf.seen.add(t)) {
            dups[g]++;
          } else {
            buf.add(t, m.getValue());
            stored[g]++;
            storedTotal++;
          }
        }
      }
    }
    fresh.values().removeIf(b -> b.n == 0);
    for (Map.Entry<String, PointBuffer> f : fresh.entrySet()) {
      entry(f.getKey());
      wal.add(f.getKey(), f.getValue().t, f.getValue().v, f.getValue().n);
    }
    if (!fresh.isEmpty()) {
      long start = System.nanoTime();
      wal.commit();
      metrics.walCommitted(System.nanoTime() - start);
    }
    Map<String, RawSeries.Points> published = new TreeMap<>();
    for (Map.Entry<String, PointBuffer> f : fresh.entrySet()) {
      PointBuffer b = f.getValue();
      Entry e = series.get(f.getKey());
      e.raw().add(b.t, b.v, b.n);
      RawSeries.Points p = b.sorted();
      for (int i = 0; i < p.size(); i++) {
        e.archive().update(p.times()[i], p.values()[i]);
      }
      published.put(f.getKey(), p);
    }
    // Counted once durable, before anyone is told: a scrape after the reply sees it.
    metrics.appended(storedTotal);
    for (int g = 0; g < group.size(); g++) {
      group.get(g).done().complete(new Result(stored[g], dups[g]));
    }
    if (!published.isEmpty()) {
      hub.publish(published);
    }
  }

  private void maybeCheckpoint() throws IOException {
    if (wal.size() > CHECKPOINT_BYTES
        || (wal.size() > 0 && clock.millis() - lastCheckpointMs > CHECKPOINT_MS)) {
      checkpoint();
    }
  }

  /** Forces every series file, compacts large ones, then empties the log. */
  private void checkpoint() throws IOException {
    for (Entry e : series.values()) {
      e.raw().sync();
      e.raw().compactIfLarge();
    }
    wal.reset();
    lastCheckpointMs = clock.millis();
  }

  Optional<RawSeries.Points> range(String name, long fromMs, long toMs, int limit) {
    Entry e = series.get(name);
    return e == null ? Optional.empty() : Optional.of(e.raw().range(fromMs, toMs, limit));
  }

  Optional<RawSeries.Points> last(String name, int n) {
    Entry e = series.get(name);
    return e == null ? Optional.empty() : Optional.of(e.raw().last(n));
  }

  Optional<List<ConsolidatedPoint>> consolidated(String name, Resolution r, long fromMs,
      long toMs) throws IOException {
    Entry e = series.get(name);
    return e == null ? Optional.empty() : Optional.of(e.archive().fetch(r, fromMs, toMs));
  }

  /** Names of stored series matching {@code pattern} (null for all), sorted. */
  public List<String> names(SeriesPattern pattern) {
    List<String> out = new ArrayList<>();
    for (String s : series.keySet()) {
      if (pattern == null || pattern.matches(s)) {
        out.add(s);
      }
    }
    out.sort(null);
    return out;
  }

  /** Series stored. */
  public int seriesCount() {
    return series.size();
  }

  /** Watch streams being served. */
  public int watchStreams() {
    return hub.watcherCount();
  }

  /** Raw points held for a series, or 0 if it is unknown. */
  public int count(String name) {
    Entry e = series.get(name);
    return e == null ? 0 : e.raw().size();
  }

  /** Count, first and last time, last value of a series. */
  Optional<RawSeries> raw(String name) {
    Entry e = series.get(name);
    return e == null ? Optional.empty() : Optional.of(e.raw());
  }

  /** Subscribes a watcher; see {@link WatchHub}. */
  WatchHub.Watcher watch(List<SeriesPattern> patterns, long sinceMs, boolean liveOnly,
      WatchHub.Sink sink) {
    return hub.subscribe(patterns, sinceMs, liveOnly, (ps, since) -> {
      Map<String, RawSeries.Points> out = new TreeMap<>();
      for (String name : names(null)) {
        for (SeriesPattern p : ps) {
          if (p.matches(name)) {
            RawSeries.Points pts = series.get(name).raw().after(since, Integer.MAX_VALUE);
            if (pts.size() > 0) {
              out.put(name, pts);
            }
            break;
          }
        }
      }
      return out;
    }, sink);
  }

  /** Finishes queued appends, then checkpoints and closes every file. */
  @Override
  public void close() throws IOException {
    closing = true;
    try {
      writer.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Pending p : queue) {
      p.done().completeExceptionally(new RejectedExecutionException("memory-host closed"));
    }
    checkpoint();
    wal.close();
    for (Entry e : series.values()) {
      e.raw().close();
      e.archive().close();
    }
    archives.close();
  }

  /** Points gathered for one series within a write group. */
  private static final class PointBuffer {
    final Set<Long> seen = new HashSet<>();
    long[] t = new long[8];
    double[] v = new double[8];
    int n;

    void add(long time, double value) {
      if (n == t.length) {
        t = Arrays.copyOf(t, n * 2);
        v = Arrays.copyOf(v, n * 2);
      }
      t[n] = time;
      v[n] = value;
      n++;
    }

    RawSeries.Points sorted() {
      Integer[] order = new Integer[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Long.compare(t[a], t[b]));
      long[] st = new long[n];
      double[] sv = new double[n];
      for (int i = 0; i < n; i++) {
        st[i] = t[order[i]];
        sv[i] = v[order[i]];
      }
      return new RawSeries.Points(st, sv);
    }
  }
}
