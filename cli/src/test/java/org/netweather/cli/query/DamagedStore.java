package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.memoryhost.MeasurementStore;
import org.netweather.memoryhost.store.SeriesDb;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * A memory-host's data directory with one flipped byte in its largest table file (chunk data), as
 * issue 29 found it: a memory-host started on it answers DATA_LOSS for the series hit and counts
 * them as damaged.
 */
final class DamagedStore {
  static final List<String> SERIES =
      List.of("cpu.availability:alpha", "cpu.availability:beta", "cpu.availability:gamma");
  static final int POINTS = 3600;

  private DamagedStore() {}

  /** Fills {@code dataDir} with an hour of points a second per series and damages one table. */
  static void make(Path dataDir) throws Exception {
    ExecutorService watch = Executors.newSingleThreadExecutor();
    try (MeasurementStore store =
        MeasurementStore.open(dataDir, 1_000_000, Clock.systemUTC(), watch)) {
      // Random values, so chunks barely compress and the middle of the table is chunk data.
      Random rnd = new Random(29);
      long start = System.currentTimeMillis() - POINTS * 1000L;
      for (int from = 0; from < POINTS; from += 600) {
        List<SeriesPoints> batches = new ArrayList<>();
        for (String name : SERIES) {
          SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(name);
          for (int i = from; i < from + 600; i++) {
            b.addPoints(
                Measurement.newBuilder()
                    .setTimestampMs(start + i * 1000L)
                    .setValue(rnd.nextDouble()));
          }
          batches.add(b.build());
        }
        assertEquals(600 * SERIES.size(), store.append(batches).get().stored());
      }
    } finally {
      watch.shutdownNow();
    }
    Path points = dataDir.resolve("points");
    flushTables(points);
    flipMiddle(largestTable(points));
  }

  /** Flushes every column family to table files (a clean close leaves them in RocksDB's log). */
  private static void flushTables(Path points) throws RocksDBException {
    List<String> families = List.of("default", "series", "head", "chunks", "archives", "log");
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    List<ColumnFamilyOptions> options = new ArrayList<>();
    for (String f : families) {
      ColumnFamilyOptions o = SeriesDb.familyOptions(f);
      options.add(o);
      descriptors.add(new ColumnFamilyDescriptor(f.getBytes(StandardCharsets.UTF_8), o));
    }
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions db = new DBOptions();
        RocksDB rocks = RocksDB.open(db, points.toString(), descriptors, handles);
        FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      rocks.flush(flush, handles);
      handles.forEach(ColumnFamilyHandle::close);
    } finally {
      options.forEach(ColumnFamilyOptions::close);
    }
  }

  private static Path largestTable(Path points) throws IOException {
    try (Stream<Path> files = Files.list(points)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".sst"))
          .max(Comparator.comparingLong(p -> p.toFile().length()))
          .orElseThrow();
    }
  }

  private static void flipMiddle(Path file) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long at = ch.size() / 2;
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, at);
      b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
      ch.write(b, at);
    }
  }
}
