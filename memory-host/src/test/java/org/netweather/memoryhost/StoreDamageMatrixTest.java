package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.ConsolidatedPoint;
import org.netweather.api.v1.FetchConsolidatedRequest;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.Resolution;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.TimeRange;
import org.netweather.memoryhost.store.SeriesDb;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Issue 29, item 2: every file a memory-host keeps, damaged in each way, then the store opened
 * again. Two outcomes are allowed: the open refuses, naming the damaged file; or the store opens
 * and every series answers either with every point acknowledged (values as written) or DATA_LOSS
 * naming it, a DATA_LOSS being counted. Never OK with points missing, never a series gone without a
 * word.
 *
 * <p>Each file kind is one test, the damages its arguments; every case starts from a copy of a
 * directory prepared once (filled, then closed cleanly or as if killed).
 */
class StoreDamageMatrixTest {
  private static final List<String> SERIES =
      List.of("cpu.availability:alpha", "cpu.availability:beta", "cpu.availability:gamma");
  // Not a multiple of a chunk's 120 points: each series keeps a head as well as chunks.
  private static final int POINTS = 3650;

  /** How a file is damaged. */
  enum Damage {
    FLIP_FIRST_BYTE,
    FLIP_IN_HEADER,
    FLIP_IN_MIDDLE,
    // Inside the last record, or the footer that ends a table or blob file.
    FLIP_IN_LAST_RECORD,
    CUT_TO_EMPTY,
    CUT_AFTER_HEADER,
    CUT_IN_HALF,
    CUT_LAST_BYTE;

    void applyTo(Path file) throws IOException {
      long size = Files.size(file);
      switch (this) {
        case FLIP_FIRST_BYTE -> flip(file, 0);
        case FLIP_IN_HEADER -> flip(file, Math.min(9, size - 1));
        case FLIP_IN_MIDDLE -> flip(file, size / 2);
        case FLIP_IN_LAST_RECORD -> flip(file, Math.max(0, size - 24));
        case CUT_TO_EMPTY -> cut(file, 0);
        case CUT_AFTER_HEADER -> cut(file, Math.min(12, size - 1));
        case CUT_IN_HALF -> cut(file, size / 2);
        case CUT_LAST_BYTE -> cut(file, size - 1);
      }
    }
  }

  @TempDir static Path templates;
  // Closed cleanly (heads in the checkpoint), then every family flushed to table files.
  private static Path clean;
  // Closed as if killed: RocksDB's write-ahead log holds every write.
  private static Path killed;
  // Killed, then flushed: the point log's records sit in a table file of their own.
  private static Path killedFlushed;
  private static final Map<String, List<Measurement>> written = new HashMap<>();
  private static final Map<String, List<ConsolidatedPoint>> archived = new HashMap<>();
  private static final FakeClock clock = FakeClock.atDefaultStart();
  private static final ExecutorService watchPool = Executors.newSingleThreadExecutor();

  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path work;
  private MeasurementStore store;

  @BeforeAll
  static void prepare() throws Exception {
    Random rnd = new Random(29);
    long start = clock.millis() - POINTS * 1000L;
    for (String name : SERIES) {
      List<Measurement> points = new ArrayList<>();
      for (int i = 0; i < POINTS; i++) {
        points.add(
            Measurement.newBuilder()
                .setTimestampMs(start + i * 1000L)
                .setValue(rnd.nextDouble())
                .build());
      }
      written.put(name, points);
    }
    clean = templates.resolve("clean");
    killed = templates.resolve("killed");
    killedFlushed = templates.resolve("killed-flushed");

    GrpcCleanupExtension setup = new GrpcCleanupExtension();
    try {
      MeasurementStore s = MeasurementStore.open(clean, 1_000_000, clock, watchPool);
      MemoryHostGrpc.MemoryHostBlockingStub stub =
          MemoryHostGrpc.newBlockingStub(setup.inProcess(new MemoryHostService(s, clock)));
      fill(stub);
      for (String name : SERIES) {
        // Builds each archive; a clean close flushes them (written unlogged) to a blob file.
        archived.put(name, stub.fetchConsolidated(consolidated(name)).getPointsList());
        assertTrue(
            archived.get(name).size() > 0, name + " has an archive: " + archived.get(name).size());
      }
      s.close();
      flushTables(clean.resolve("points"));

      s = MeasurementStore.open(killed, 1_000_000, clock, watchPool);
      fill(MemoryHostGrpc.newBlockingStub(setup.inProcess(new MemoryHostService(s, clock))));
      s.closeAsIfKilled();
      copyTree(killed, killedFlushed);
      flushTables(killedFlushed.resolve("points"));
    } finally {
      setup.afterEach(null);
    }
  }

  @AfterAll
  static void stopPool() {
    watchPool.shutdownNow();
  }

  @AfterEach
  void tearDown() throws IOException {
    if (store != null) {
      store.close();
    }
  }

  private static void fill(MemoryHostGrpc.MemoryHostBlockingStub stub) {
    for (int from = 0; from < POINTS; from += 730) {
      AppendRequest.Builder req = AppendRequest.newBuilder();
      for (String name : SERIES) {
        req.addBatches(
            SeriesPoints.newBuilder()
                .setSeries(name)
                .addAllPoints(written.get(name).subList(from, Math.min(POINTS, from + 730))));
      }
      assertEquals(730 * SERIES.size(), stub.append(req.build()).getStored());
    }
  }

  private static FetchConsolidatedRequest consolidated(String name) {
    return FetchConsolidatedRequest.newBuilder()
        .setSeries(name)
        .setResolution(Resolution.RESOLUTION_MINUTE)
        .setRange(
            TimeRange.newBuilder()
                .setFromMs(clock.millis() - 2 * POINTS * 1000L)
                .setToMs(clock.millis()))
        .build();
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void headCheckpoint(Damage damage) throws Exception {
    Path data = copyOf(clean);
    Path file = data.resolve("points").resolve("heads.checkpoint");
    damage.applyTo(file);
    assertRefusedOrReported(data, file, false);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void chunkTable(Damage damage) throws Exception {
    Path data = copyOf(clean);
    Path file = data.resolve("points").resolve(tableOf(clean, "chunks"));
    damage.applyTo(file);
    assertRefusedOrReported(data, file, false);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void seriesCatalogTable(Damage damage) throws Exception {
    Path data = copyOf(clean);
    Path file = data.resolve("points").resolve(tableOf(clean, "series"));
    damage.applyTo(file);
    assertRefusedOrReported(data, file, false);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void pointLogTable(Damage damage) throws Exception {
    Path data = copyOf(killedFlushed);
    Path file = data.resolve("points").resolve(tableOf(killedFlushed, "log"));
    damage.applyTo(file);
    assertRefusedOrReported(data, file, false);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void writeAheadLog(Damage damage) throws Exception {
    Path data = copyOf(killed);
    Path file = largest(data.resolve("points"), ".log");
    damage.applyTo(file);
    assertRefusedOrReported(data, file, false);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void archiveBlobFile(Damage damage) throws Exception {
    Path data = copyOf(clean);
    Path file = largest(data.resolve("points"), ".blob");
    damage.applyTo(file);
    assertRefusedOrReported(data, file, true);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void manifest(Damage damage) throws Exception {
    Path data = copyOf(clean);
    Path file = largest(data.resolve("points"), "MANIFEST-");
    damage.applyTo(file);
    assertRefusedOrReported(data, file, false);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void logWatermark(Damage damage) throws Exception {
    Path data = copyOf(killed);
    Path file = data.resolve("points").resolve("acknowledged");
    damage.applyTo(file);
    // Only a witness: a damaged one is logged and rewritten, and nothing is lost.
    assertEquals("whole", assertRefusedOrReported(data, file, false));
  }

  /**
   * Opens the damaged store: either the open refuses naming {@code file}, or every series answers
   * whole or DATA_LOSS (and archives too, with {@code archives}), any DATA_LOSS counted.
   */
  private String assertRefusedOrReported(Path data, Path file, boolean archives) throws Exception {
    String fileName = file.getFileName().toString();
    try {
      store = MeasurementStore.open(data, 1_000_000, clock, watchPool);
    } catch (IOException refused) {
      assertTrue(
          String.valueOf(refused.getMessage()).contains(fileName),
          "a refusal names the damaged file " + fileName + ": " + refused);
      System.out.println("damage outcome: " + fileName + ": refused: " + refused.getMessage());
      return "refused";
    }
    ManagedChannel channel = grpc.inProcess(new MemoryHostService(store, clock));
    MemoryHostGrpc.MemoryHostBlockingStub stub = MemoryHostGrpc.newBlockingStub(channel);
    int lost = 0;
    for (String name : SERIES) {
      List<Measurement> expected = written.get(name);
      for (FetchRequest req :
          List.of(
              FetchRequest.newBuilder().setSeries(name).setLast(POINTS + 10).build(),
              FetchRequest.newBuilder()
                  .setSeries(name)
                  .setRange(TimeRange.newBuilder().setFromMs(0).setToMs(clock.millis()))
                  .build())) {
        try {
          List<Measurement> got = stub.fetch(req).getPointsList();
          assertEquals(POINTS, got.size(), name + ": an OK answer holds every acknowledged point");
          assertEquals(expected, got, name + ": an OK answer holds the values written");
        } catch (StatusRuntimeException e) {
          assertDataLossNaming(e, name);
          lost++;
        }
      }
      if (archives) {
        try {
          assertEquals(
              archived.get(name),
              stub.fetchConsolidated(consolidated(name)).getPointsList(),
              name + ": an OK answer holds the archive's rows");
        } catch (StatusRuntimeException e) {
          assertDataLossNaming(e, name);
          lost++;
        }
      }
    }
    if (lost > 0) {
      assertTrue(store.damagedSeries() > 0, "a DATA_LOSS answer is counted");
      assertTrue(store.damagedReads() >= lost, "every damaged read is counted");
    }
    String outcome = lost == 0 ? "whole" : store.damagedSeries() + " series DATA_LOSS";
    System.out.println("damage outcome: " + fileName + ": " + outcome);
    return outcome;
  }

  private static void assertDataLossNaming(StatusRuntimeException e, String series) {
    if (e.getStatus().getCode() != Status.Code.DATA_LOSS) {
      fail(series + ": neither whole nor DATA_LOSS: " + e.getStatus());
    }
    assertTrue(String.valueOf(e.getStatus().getDescription()).contains(series), e.toString());
  }

  private Path copyOf(Path template) throws IOException {
    Path to = work.resolve("data");
    copyTree(template, to);
    return to;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().equals("LOCK")) {
          Files.copy(p, target);
        }
      }
    }
  }

  private static Path largest(Path dir, String part) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> p.getFileName().toString().contains(part))
          .max(Comparator.comparingLong(p -> p.toFile().length()))
          .orElseThrow(() -> new AssertionError("no " + part + " file in " + dir));
    }
  }

  /** The largest table file of a column family, by RocksDB's own account. */
  private static String tableOf(Path template, String family) {
    String name = TABLES.get(template.getFileName() + "|" + family);
    if (name == null) {
      throw new AssertionError("no table of " + family + " in " + template);
    }
    return name;
  }

  private static final Map<String, String> TABLES = new HashMap<>();

  /** Flushes every column family to table files and notes which file holds which family. */
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
      Map<String, Long> sizes = new HashMap<>();
      for (LiveFileMetaData f : rocks.getLiveFilesMetaData()) {
        String family = new String(f.columnFamilyName(), StandardCharsets.UTF_8);
        if (f.size() > sizes.getOrDefault(family, -1L)) {
          sizes.put(family, f.size());
          String name = f.fileName();
          name = name.substring(name.lastIndexOf('/') + 1);
          register(points, family, name);
        }
      }
      handles.forEach(ColumnFamilyHandle::close);
    } finally {
      options.forEach(ColumnFamilyOptions::close);
    }
  }

  private static void register(Path points, String family, String name) {
    // The copies each case works on have the template's file names.
    String dirName = points.getParent().getFileName().toString();
    TABLES.put(dirName + "|" + family, name);
  }

  private static void flip(Path file, long at) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      if (ch.read(b, at) != 1) {
        throw new UncheckedIOException(new IOException("no byte at " + at + " in " + file));
      }
      b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
      ch.write(b, at);
    }
  }

  private static void cut(Path file, long length) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(length);
    }
  }
}
