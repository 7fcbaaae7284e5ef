package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.memoryhost.store.SeriesDb;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Issue 29: one flipped byte in a RocksDB table file made a memory-host answer Fetch with OK and
 * part of a series' points (or none), and say nothing. Now a series whose stored chunks cannot be
 * read answers DATA_LOSS naming it and the file, the others serve whole, and the damage is counted;
 * an open that cannot read its catalog refuses, naming the file.
 */
class Issue29DamagedStoreTest {
  private static final List<String> SERIES =
      List.of("cpu.availability:alpha", "cpu.availability:beta", "cpu.availability:gamma");
  private static final int POINTS = 3600;

  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();
  private final ExecutorService watchPool = Executors.newSingleThreadExecutor();
  private MeasurementStore store;

  @AfterEach
  void tearDown() throws Exception {
    if (store != null) {
      store.close();
    }
    watchPool.shutdownNow();
  }

  private MemoryHostGrpc.MemoryHostBlockingStub start() throws IOException {
    store = MeasurementStore.open(dir, 1_000_000, clock, watchPool);
    ManagedChannel channel = grpc.inProcess(new MemoryHostService(store, clock));
    return MemoryHostGrpc.newBlockingStub(channel);
  }

  /** An hour of one point a second in each series; random values, so chunks barely compress. */
  private void fill(MemoryHostGrpc.MemoryHostBlockingStub stub) {
    Random rnd = new Random(29);
    long start = clock.millis() - POINTS * 1000L;
    for (int from = 0; from < POINTS; from += 600) {
      AppendRequest.Builder req = AppendRequest.newBuilder();
      for (String name : SERIES) {
        SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(name);
        for (int i = from; i < from + 600; i++) {
          b.addPoints(
              Measurement.newBuilder()
                  .setTimestampMs(start + i * 1000L)
                  .setValue(rnd.nextDouble()));
        }
        req.addBatches(b);
      }
      assertEquals(600 * SERIES.size(), stub.append(req.build()).getStored());
    }
  }

  /**
   * Flushes every column family to table files, as a store that has run a while has them (a clean
   * close leaves recent writes in RocksDB's own log).
   */
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

  @Test
  void byteFlippedInTheLargestTable_affectedSeriesAnswerDataLoss_othersServeWhole()
      throws Exception {
    fill(start());
    store.close();
    store = null;
    Path points = dir.resolve("points");
    flushTables(points);
    Path sst = largestTable(points);
    flipMiddle(sst);

    MemoryHostGrpc.MemoryHostBlockingStub stub;
    try {
      stub = start();
    } catch (IOException refused) {
      // The other outcome allowed: the open could not read its catalog and says which file.
      assertTrue(refused.getMessage().contains(sst.getFileName().toString()), refused.getMessage());
      return;
    }
    int lost = 0;
    for (String name : SERIES) {
      for (FetchRequest req :
          List.of(
              FetchRequest.newBuilder().setSeries(name).setLast(POINTS).build(),
              FetchRequest.newBuilder()
                  .setSeries(name)
                  .setRange(
                      org.netweather.api.v1.TimeRange.newBuilder()
                          .setFromMs(0)
                          .setToMs(clock.millis()))
                  .build())) {
        try {
          int got = stub.fetch(req).getPointsCount();
          assertEquals(POINTS, got, name + ": an OK answer must hold every point");
        } catch (StatusRuntimeException e) {
          assertEquals(Status.Code.DATA_LOSS, e.getStatus().getCode(), e.toString());
          String why = e.getStatus().getDescription();
          assertTrue(why.contains(name), why);
          assertTrue(why.contains(sst.getFileName().toString()), why);
          lost++;
        }
      }
    }
    assertTrue(lost > 0, "the flipped byte is in chunk data: some series must answer DATA_LOSS");
    assertTrue(lost < 2 * SERIES.size(), "a block holds part of one or two series, not all");
    assertTrue(store.damagedSeries() >= 1 && store.damagedSeries() < SERIES.size());
    assertTrue(store.damagedReads() >= lost);
  }

  @Test
  void catalogUnreadable_openRefusesNamingTheFile() throws Exception {
    MemoryHostGrpc.MemoryHostBlockingStub stub = start();
    // Many series, so that the catalog is the largest table.
    for (int part = 0; part < 3; part++) {
      AppendRequest.Builder req = AppendRequest.newBuilder();
      for (int i = 0; i < 1000; i++) {
        req.addBatches(
            SeriesPoints.newBuilder()
                .setSeries("cpu.availability:host-with-a-long-name-" + part + "-" + i)
                .addPoints(Measurement.newBuilder().setTimestampMs(clock.millis() - 1000)));
      }
      stub.withDeadlineAfter(60, java.util.concurrent.TimeUnit.SECONDS).append(req.build());
    }
    store.close();
    store = null;
    Path points = dir.resolve("points");
    flushTables(points);
    Path sst = largestTable(points);
    flipMiddle(sst);

    IOException refused =
        org.junit.jupiter.api.Assertions.assertThrows(IOException.class, this::start);
    assertTrue(refused.getMessage().contains(sst.getFileName().toString()), refused.getMessage());
    assertTrue(refused.getMessage().contains("series catalog"), refused.getMessage());
  }
}
