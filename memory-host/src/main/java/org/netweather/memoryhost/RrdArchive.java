package org.netweather.memoryhost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.netweather.api.v1.ConsolidatedPoint;
import org.netweather.api.v1.Resolution;
import org.rrd4j.ConsolFun;
import org.rrd4j.DsType;
import org.rrd4j.core.FetchData;
import org.rrd4j.core.FetchRequest;
import org.rrd4j.core.RrdDb;
import org.rrd4j.core.RrdDbPool;
import org.rrd4j.core.RrdDef;
import org.rrd4j.core.Sample;

/**
 * An {@link Archive} in one RRD4J database: a 60 s base step, AVERAGE rows at one minute
 * (2 days), and AVERAGE, MIN and MAX rows at one hour (60 days) and one day (5 years). A minute
 * row is a single step, the time-weighted average of the samples in it, so its min and max are
 * that average. A gap longer than ten minutes is unknown rather than interpolated. Forecasts
 * never read these rows; they use raw points.
 */
final class RrdArchive implements Archive {
  private static final long STEP = 60;
  private static final String DS = "v";
  private static final int MAX_OPEN = 1 << 20;

  private final RrdDb db;

  private RrdArchive(RrdDb db) {
    this.db = db;
  }

  /** Opens archives from one pool, as RRD4J wants one per process. */
  static Factory factory() {
    RrdDbPool pool = new RrdDbPool();
    // Every series keeps its database open; the pool's default cap of 100 open databases would
    // block the writer at the 101st series.
    pool.setCapacity(MAX_OPEN);
    return new Factory() {
      @Override
      public Archive open(String series, Path dir) throws IOException {
        Path file = dir.resolve("archive.rrd");
        RrdDb db;
        if (Files.exists(file)) {
          db = RrdDb.getBuilder().setPath(file.toString()).setPool(pool).build();
        } else {
          RrdDef def = new RrdDef(file.toString(), 0, STEP);
          def.addDatasource(DS, DsType.GAUGE, 10 * STEP, Double.NaN, Double.NaN);
          def.addArchive(ConsolFun.AVERAGE, 0.5, 1, 2 * 1440);
          for (ConsolFun f : new ConsolFun[] {ConsolFun.AVERAGE, ConsolFun.MIN, ConsolFun.MAX}) {
            def.addArchive(f, 0.5, 60, 60 * 24);
            def.addArchive(f, 0.5, 1440, 5 * 366);
          }
          db = RrdDb.getBuilder().setRrdDef(def).setPool(pool).build();
        }
        return new RrdArchive(db);
      }

      @Override
      public void close() {
        // The pool has nothing left to release once every database is closed.
      }
    };
  }

  @Override
  public synchronized long lastUpdateSeconds() throws IOException {
    return db.getLastUpdateTime();
  }

  @Override
  public synchronized void update(long timestampMs, double value) throws IOException {
    long sec = timestampMs / 1000;
    if (sec <= db.getLastUpdateTime()) {
      return;
    }
    Sample s = db.createSample(sec);
    s.setValue(DS, value);
    s.update();
  }

  @Override
  public synchronized List<ConsolidatedPoint> fetch(Resolution resolution, long fromMs, long toMs)
      throws IOException {
    long step = Archive.stepSeconds(resolution);
    long from = fromMs / 1000;
    long to = Math.max(from + step, toMs / 1000);
    double[][] v = new double[3][];
    long[] ts = null;
    ConsolFun[] funs = resolution == Resolution.RESOLUTION_MINUTE
        ? new ConsolFun[] {ConsolFun.AVERAGE, ConsolFun.AVERAGE, ConsolFun.AVERAGE}
        : new ConsolFun[] {ConsolFun.AVERAGE, ConsolFun.MIN, ConsolFun.MAX};
    for (int i = 0; i < 3; i++) {
      FetchRequest req = db.createFetchRequest(funs[i], from, to, step);
      FetchData data = req.fetchData();
      v[i] = data.getValues(DS);
      ts = data.getTimestamps();
    }
    List<ConsolidatedPoint> out = new ArrayList<>();
    for (int k = 0; ts != null && k < ts.length; k++) {
      if (Double.isNaN(v[0][k])) {
        continue;
      }
      // RRD timestamps mark the end of a step; report its start.
      long startMs = (ts[k] - step) * 1000;
      if (startMs + step * 1000 <= fromMs || startMs > toMs) {
        continue;
      }
      out.add(ConsolidatedPoint.newBuilder().setTimestampMs(startMs).setAverage(v[0][k])
          .setMin(v[1][k]).setMax(v[2][k]).build());
    }
    return out;
  }

  @Override
  public synchronized void close() throws IOException {
    // A database built with a pool goes back to that pool when closed.
    db.close();
  }
}
