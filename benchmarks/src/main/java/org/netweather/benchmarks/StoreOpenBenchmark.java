package org.netweather.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.netweather.memoryhost.store.PointBuffer;
import org.netweather.memoryhost.store.SeriesDb;
import org.netweather.memoryhost.store.SeriesState;

/**
 * How long the memory-host's store takes to open after a SIGKILL, step by step, for a site's worth
 * of series: SERIES series named as a site's are, each with POINTS points in its head, a
 * checkpoint, then REPLAY more points per series in the point log only. Each open is timed and then
 * closed as a kill would leave it, so every round replays the same log.
 *
 * <pre>
 *   benchmarks/run StoreOpenBenchmark [SERIES] [POINTS] [REPLAY] [ROUNDS] [DIR]
 * </pre>
 *
 * <p>Defaults: 470 000 series (10 000 hosts), 60 points each, 2 replayed per series, 3 rounds.
 *
 * <p>Last results (2-vCPU VM, ext4, quiet, 2026-11-26): open 1.4-1.8 s (series records 0.8-1.4 s
 * while a second thread reads the heads' checkpoint file, then 0.1 s more for heads; 940 000 points
 * replayed in 0.3-0.4 s); 2.0-2.5 s with the file read after the records (heads 0.5-0.9 s); 2.3-2.9
 * s with heads in a RocksDB column family (heads 0.9-1.6 s), 4.2-4.5 s when heads were decoded to
 * find their newest value.
 */
public final class StoreOpenBenchmark {
  private static final long T0 = 1_700_000_000_000L;

  private StoreOpenBenchmark() {}

  public static void main(String[] args) throws Exception {
    int series = args.length > 0 ? Integer.parseInt(args[0]) : 470_000;
    int points = args.length > 1 ? Integer.parseInt(args[1]) : 60;
    int replay = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    Path dir = args.length > 4 ? Path.of(args[4]) : Files.createTempDirectory("nws-open");
    System.out.printf(
        Locale.ROOT,
        "store open: %d series, %d points each in heads, %d each in the log only; %s%n",
        series,
        points,
        replay,
        dir);
    long start = System.nanoTime();
    SeriesDb db = SeriesDb.open(dir);
    Random rnd = new Random(1);
    List<String> names = new ArrayList<>(series);
    for (int i = 0; i < series; i++) {
      int host = i / 47;
      int k = i % 47;
      names.add(
          k < 2
              ? (k == 0 ? "cpu.availability:" : "memory.free:") + "host" + host
              : "tcp.latency:host" + host + "->host" + (host + k));
    }
    for (int p = 0; p < points + replay; p++) {
      if (p == points) {
        // Heads stored; what follows is only in the point log, as after a kill.
        db.checkpoint();
      }
      for (int from = 0; from < series; from += 2_000) {
        List<SeriesState> created = new ArrayList<>();
        Map<SeriesState, PointBuffer> fresh = new LinkedHashMap<>();
        for (int i = from; i < Math.min(series, from + 2_000); i++) {
          SeriesState s = db.get(names.get(i));
          if (s == null) {
            s = db.draft(names.get(i), T0);
            created.add(s);
          }
          PointBuffer b = new PointBuffer(1);
          b.add(T0 + p * 60_000L, Math.round(rnd.nextDouble() * 1000) / 10.0);
          fresh.put(s, b);
        }
        db.commit(created, fresh);
      }
    }
    db.closeAsIfKilled();
    System.out.printf(Locale.ROOT, "built in %.1f s%n", (System.nanoTime() - start) / 1e9);
    for (int r = 0; r < rounds; r++) {
      long t = System.nanoTime();
      SeriesDb again = SeriesDb.open(dir);
      double seconds = (System.nanoTime() - t) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "open %d: %.2f s (%s), %d series%n",
          r + 1,
          seconds,
          again.openTimes(),
          again.seriesCount());
      again.closeAsIfKilled();
    }
  }
}
