package org.netweather.memoryhost;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.netweather.api.v1.ConsolidatedPoint;
import org.netweather.api.v1.Resolution;
import org.netweather.memoryhost.store.Points;
import org.netweather.memoryhost.store.SeriesDb;
import org.netweather.memoryhost.store.SeriesState;
import org.rrd4j.ConsolFun;
import org.rrd4j.DsType;
import org.rrd4j.core.FetchData;
import org.rrd4j.core.FetchRequest;
import org.rrd4j.core.RrdBackendAnnotation;
import org.rrd4j.core.RrdDb;
import org.rrd4j.core.RrdDef;
import org.rrd4j.core.RrdMemoryBackendFactory;
import org.rrd4j.core.Sample;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consolidated long-term history of every series in RRD4J archives, written behind the raw points
 * the way rrdcached relieves RRDtool: appends never touch an archive; a background task visits
 * every series once per interval and folds its new raw points into its archive, and a read of an
 * archive folds them in first, so reads are always current.
 *
 * <p>An archive is an RRD4J database held as bytes in the store, opened in memory only while it is
 * updated or read: no file, descriptor or map per series, and at most one archive open per thread.
 * Archives are not synced; one lost in a crash is rebuilt from the raw points, which retention
 * keeps far longer than the interval.
 *
 * <p>Each archive: a 60 s base step, AVERAGE rows at one minute (2 days), and AVERAGE, MIN and MAX
 * rows at one hour (60 days) and one day (5 years). A minute row is a single step, so its min and
 * max are its average. A gap longer than ten minutes is unknown, not interpolated.
 */
final class ArchiveConsolidator implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ArchiveConsolidator.class);
  private static final long STEP = 60;
  private static final String DS = "v";
  private static final int MAX_POINTS_PER_UPDATE = 1_000_000;

  private final SeriesDb db;
  private final Clock clock;
  private final Duration interval;
  private final Backends backends = new Backends();
  private ScheduledFuture<?> task;
  private Iterator<SeriesState> cursor;
  private long lastWarningMs;

  ArchiveConsolidator(SeriesDb db, Clock clock, Duration interval) {
    this.db = db;
    this.clock = clock;
    this.interval = interval;
  }

  /** Starts visiting every series once per interval, a slice each second. */
  void start(ScheduledExecutorService executor) {
    task = executor.scheduleWithFixedDelay(this::step, 1, 1, TimeUnit.SECONDS);
  }

  private void step() {
    int total = db.seriesCount();
    long perStep =
        Math.max(1, (total + interval.toSeconds() - 1) / Math.max(1, interval.toSeconds()));
    for (long i = 0; i < perStep; i++) {
      if (cursor == null || !cursor.hasNext()) {
        cursor = db.series().iterator();
        if (!cursor.hasNext()) {
          return;
        }
      }
      SeriesState s = cursor.next();
      try {
        consolidate(s, true);
      } catch (IOException | RuntimeException e) {
        // Retried at the next visit; reads consolidate on their own.
        if (clock.millis() - lastWarningMs > 60_000) {
          lastWarningMs = clock.millis();
          log.warn(
              "consolidating {} failed (retried at its next visit): {}", s.name(), e.getMessage());
        }
      }
    }
  }

  /**
   * Folds a series' new raw points into its archive; returns the archive's bytes. With {@code
   * rewrite} (the periodic visit), an archive is written back even if nothing changed: the store
   * reclaims a file of archives only once every one in it has been written anew (see SeriesDb), so
   * an idle series' archive left in place would keep a whole file of stale ones on disk.
   */
  private byte[] consolidate(SeriesState s, boolean rewrite) throws IOException {
    synchronized (s) {
      byte[] stored = db.archive(s);
      if (s.count() == 0) {
        if (rewrite && stored != null) {
          db.putArchive(s, stored);
        }
        return stored;
      }
      String path = "/a" + Thread.currentThread().getId();
      backends.load(path, stored);
      boolean changed = false;
      long lastFed;
      try (RrdDb rrd = open(path, stored == null, s.firstTime() / 1000 - 1)) {
        long last = rrd.getLastUpdateTime();
        if (s.lastTime() / 1000 > last) {
          Points p = db.range(s, (last + 1) * 1000, Long.MAX_VALUE, MAX_POINTS_PER_UPDATE);
          for (int i = 0; i < p.size(); i++) {
            long sec = p.times()[i] / 1000;
            if (sec > last) {
              Sample sample = rrd.createSample(sec);
              sample.setValue(DS, p.values()[i]);
              sample.update();
              last = sec;
              changed = true;
            }
          }
        }
        lastFed = last;
      }
      byte[] bytes = backends.take(path);
      if (changed || stored == null || rewrite) {
        db.putArchive(s, bytes);
      }
      // Every point up to the end of the last second fed is in (later ones in that second are
      // dropped by the archive's one-second resolution), so retention may drop them now.
      s.archivedThrough(lastFed * 1000 + 999);
      return bytes;
    }
  }

  /**
   * Opens an archive, or creates one that starts just before {@code startSec} (the oldest raw
   * point): started at the epoch, its first update would step through and fill every row of every
   * archive, the larger part of a new series' first consolidation.
   */
  private RrdDb open(String path, boolean create, long startSec) throws IOException {
    if (!create) {
      return RrdDb.getBuilder().setPath(path).setBackendFactory(backends).build();
    }
    RrdDef def = new RrdDef(path, Math.max(0, startSec), STEP);
    def.addDatasource(DS, DsType.GAUGE, 10 * STEP, Double.NaN, Double.NaN);
    def.addArchive(ConsolFun.AVERAGE, 0.5, 1, 2 * 1440);
    for (ConsolFun f : new ConsolFun[] {ConsolFun.AVERAGE, ConsolFun.MIN, ConsolFun.MAX}) {
      def.addArchive(f, 0.5, 60, 60 * 24);
      def.addArchive(f, 0.5, 1440, 5 * 366);
    }
    return RrdDb.getBuilder().setRrdDef(def).setBackendFactory(backends).build();
  }

  /** Rows of a resolution in [fromMs, toMs], without empty steps; raw points folded in first. */
  List<ConsolidatedPoint> fetch(SeriesState s, Resolution resolution, long fromMs, long toMs)
      throws IOException {
    byte[] bytes = consolidate(s, false);
    List<ConsolidatedPoint> out = new ArrayList<>();
    if (bytes == null) {
      return out;
    }
    long step = stepSeconds(resolution);
    long from = fromMs / 1000;
    long to = Math.max(from + step, toMs / 1000);
    String path = "/f" + Thread.currentThread().getId();
    backends.load(path, bytes);
    try (RrdDb rrd =
        RrdDb.getBuilder().setPath(path).setBackendFactory(backends).readOnly().build()) {
      double[][] v = new double[3][];
      long[] ts = null;
      ConsolFun[] funs =
          resolution == Resolution.RESOLUTION_MINUTE
              ? new ConsolFun[] {ConsolFun.AVERAGE, ConsolFun.AVERAGE, ConsolFun.AVERAGE}
              : new ConsolFun[] {ConsolFun.AVERAGE, ConsolFun.MIN, ConsolFun.MAX};
      for (int i = 0; i < 3; i++) {
        FetchRequest req = rrd.createFetchRequest(funs[i], from, to, step);
        FetchData data = req.fetchData();
        v[i] = data.getValues(DS);
        ts = data.getTimestamps();
      }
      for (int k = 0; ts != null && k < ts.length; k++) {
        if (Double.isNaN(v[0][k])) {
          continue;
        }
        // RRD timestamps mark the end of a step; report its start.
        long startMs = (ts[k] - step) * 1000;
        if (startMs + step * 1000 <= fromMs || startMs > toMs) {
          continue;
        }
        out.add(
            ConsolidatedPoint.newBuilder()
                .setTimestampMs(startMs)
                .setAverage(v[0][k])
                .setMin(v[1][k])
                .setMax(v[2][k])
                .build());
      }
    } finally {
      backends.take(path);
    }
    return out;
  }

  /** Step of a resolution in seconds. */
  static long stepSeconds(Resolution r) {
    switch (r) {
      case RESOLUTION_MINUTE:
        return 60;
      case RESOLUTION_HOUR:
        return 3600;
      case RESOLUTION_DAY:
        return 86_400;
      default:
        throw new IllegalArgumentException("resolution " + r + " is not one of MINUTE, HOUR, DAY");
    }
  }

  @Override
  public void close() {
    if (task != null) {
      task.cancel(false);
    }
  }

  /**
   * RRD4J's in-memory backend, loaded from and drained to the store's bytes. The bytes are used in
   * place, not copied: an archive is about 100 KB, and two copies a visit were most of what the
   * consolidator allocated.
   */
  @RrdBackendAnnotation(name = "NWSBYTES", shouldValidateHeader = false)
  private static final class Backends extends RrdMemoryBackendFactory {
    /** Lends {@code bytes} (which the caller no longer needs as they were) to the archive. */
    void load(String path, byte[] bytes) {
      if (bytes == null) {
        backends.remove(path);
      } else {
        backends.put(path, new AtomicReference<>(ByteBuffer.wrap(bytes)));
      }
    }

    byte[] take(String path) {
      AtomicReference<ByteBuffer> ref = backends.remove(path);
      if (ref == null || ref.get() == null) {
        return null;
      }
      ByteBuffer b = ref.get();
      if (b.hasArray() && b.arrayOffset() == 0 && b.array().length == b.capacity()) {
        return b.array();
      }
      b = b.duplicate();
      b.clear();
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    }
  }
}
