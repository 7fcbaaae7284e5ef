package org.netweather.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.netweather.memoryhost.store.SeriesDb;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteOptions;

/**
 * What it costs RocksDB to keep a site's consolidated archives once they hold data: SERIES archives
 * of about 100 KB (an RRD image, FILLED of it data, the rest empty rows) are each rewritten once
 * per cycle, as the memory-host's consolidator rewrites each once per interval, for CYCLES cycles.
 * Per cycle it prints the CPU of RocksDB's own threads per archive written and the disk the family
 * takes. Two runs in one process: the archives family exactly as the memory-host configures it
 * ({@link SeriesDb#familyOptions}), and the same with blob garbage collection (age cutoff 0.5) as
 * the baseline.
 *
 * <pre>
 *   benchmarks/run ArchiveChurnBenchmark [SERIES] [CYCLES] [FILLED] [DIR]
 * </pre>
 *
 * <p>Defaults: 50 000 archives, 5 cycles, 0.6 filled (a series' archives after about two months).
 *
 * <p>Last results (2-vCPU VM, ext4, quiet, 2026-11-26, 50 000 archives 0.6 filled): as configured
 * 200-250 us of RocksDB CPU per archive written in every cycle, disk steady at 4.8-5.0 GB (the live
 * archives plus up to a cycle of replaced ones); with blob garbage collection 230-340 us in the
 * first cycles, then 2 200-2 600 us from the third or fourth on, when collection moves blobs that
 * the next cycle replaces anyway. Rewriting only the 4 KB pages a visit changed (about 7 of 25)
 * needs collection, since unchanged pages keep their old files alive: 470-780 us per archive and
 * disk growing by 1.3 GB a cycle.
 */
public final class ArchiveChurnBenchmark {
  private static final int LENGTH = 102_244; // the memory-host's RRD image, 7 archives
  private static final int CHANGED_PER_VISIT = 6;

  private ArchiveChurnBenchmark() {}

  public static void main(String[] args) throws Exception {
    int series = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
    int cycles = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    double filled = args.length > 2 ? Double.parseDouble(args[2]) : 0.6;
    Path dir = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("nws-archives");
    RocksDB.loadLibrary();
    System.out.printf(
        Locale.ROOT,
        "archive churn: %d archives of %d bytes, %.0f%% data, %d cycles; %s%n",
        series,
        LENGTH,
        filled * 100,
        cycles,
        dir);
    double[] configured =
        run("as configured", dir.resolve("configured"), series, cycles, filled, false);
    double[] collected =
        run("with blob GC", dir.resolve("collected"), series, cycles, filled, true);
    System.out.printf(
        Locale.ROOT,
        "last cycle: %.0f us per archive as configured, %.0f us with blob GC (%.1fx)%n",
        configured[cycles - 1],
        collected[cycles - 1],
        collected[cycles - 1] / configured[cycles - 1]);
  }

  /** Runs the cycles against a fresh database; returns RocksDB's CPU us per archive, per cycle. */
  private static double[] run(
      String label, Path dir, int series, int cycles, double filled, boolean blobGc)
      throws Exception {
    Files.createDirectories(dir);
    double[] perArchive = new double[cycles];
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions dbOptions =
            new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2);
        ColumnFamilyOptions defaults = new ColumnFamilyOptions();
        ColumnFamilyOptions archives = SeriesDb.familyOptions("archives");
        WriteOptions unlogged = new WriteOptions().setDisableWAL(true);
        FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      if (blobGc) {
        archives.setEnableBlobGarbageCollection(true).setBlobGarbageCollectionAgeCutoff(0.5);
      }
      try (RocksDB db =
          RocksDB.open(
              dbOptions,
              dir.toString(),
              List.of(
                  new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, defaults),
                  new ColumnFamilyDescriptor(
                      "archives".getBytes(StandardCharsets.UTF_8), archives)),
              handles)) {
        ColumnFamilyHandle cf = handles.get(1);
        Random rnd = new Random(1);
        byte[] image = new byte[LENGTH];
        ByteBuffer doubles = ByteBuffer.wrap(image);
        for (int at = 0; at + 8 <= LENGTH; at += 8) {
          doubles.putDouble(at, at < LENGTH * filled ? rnd.nextDouble() : Double.NaN);
        }
        for (int c = 0; c < cycles; c++) {
          long cpu0 = rocksDbTicks();
          long start = System.nanoTime();
          for (int s = 0; s < series; s++) {
            // A visit folds new rows into a few places of the image.
            for (int k = 0; k < CHANGED_PER_VISIT; k++) {
              doubles.putDouble(rnd.nextInt(LENGTH / 8) * 8, rnd.nextDouble());
            }
            db.put(cf, unlogged, ByteBuffer.allocate(8).putLong(s).array(), image);
          }
          db.flush(flush, cf);
          Thread.sleep(3_000); // the cycle's compactions
          double seconds = (rocksDbTicks() - cpu0) / 100.0;
          perArchive[c] = seconds * 1e6 / series;
          System.out.printf(
              Locale.ROOT,
              "%-14s cycle %d: %5.1f s, RocksDB threads %6.2f s CPU = %6.0f us per archive;"
                  + " disk %,d MB%n",
              label,
              c,
              (System.nanoTime() - start) / 1e9,
              seconds,
              perArchive[c],
              size(dir) >> 20);
        }
        for (ColumnFamilyHandle h : handles) {
          h.close();
        }
      }
    }
    delete(dir);
    return perArchive;
  }

  /** CPU ticks (1/100 s) of this process's RocksDB threads, from /proc. */
  private static long rocksDbTicks() throws IOException {
    long ticks = 0;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path t : tasks) {
        if (!Files.readString(t.resolve("comm")).startsWith("rocksdb")) {
          continue;
        }
        String stat = Files.readString(t.resolve("stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
      }
    }
    return ticks;
  }

  private static long size(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
