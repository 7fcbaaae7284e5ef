package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.ConsolidatedPoint;
import org.netweather.api.v1.FetchConsolidatedRequest;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.ListSeriesRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.Resolution;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.SeriesSummary;
import org.netweather.api.v1.TimeRange;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;

class MemoryHostServiceTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();
  private final ExecutorService watchPool = Executors.newSingleThreadExecutor();
  private MeasurementStore store;
  private ManagedChannel channel;
  private MemoryHostGrpc.MemoryHostBlockingStub stub;

  @BeforeEach
  void setUp() throws Exception {
    store = MeasurementStore.open(dir, 1000, clock, watchPool);
    channel = grpc.inProcess(new MemoryHostService(store, clock));
    stub = MemoryHostGrpc.newBlockingStub(channel);
  }

  @AfterEach
  void tearDown() throws Exception {
    store.close();
    watchPool.shutdownNow();
  }

  private long t(int seconds) {
    return clock.millis() - 3_600_000 + seconds * 1000L;
  }

  private static SeriesPoints points(String series, long[] ts, double... values) {
    SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(series);
    for (int i = 0; i < ts.length; i++) {
      b.addPoints(Measurement.newBuilder().setTimestampMs(ts[i]).setValue(values[i]));
    }
    return b.build();
  }

  private AppendResponse append(SeriesPoints... batches) {
    return stub.append(AppendRequest.newBuilder().addAllBatches(List.of(batches)).build());
  }

  private List<Double> values(String series, int last) {
    return stub
        .fetch(FetchRequest.newBuilder().setSeries(series).setLast(last).build())
        .getPointsList()
        .stream()
        .map(Measurement::getValue)
        .collect(Collectors.toList());
  }

  @Test
  void append_retried_addsNoDuplicates() {
    SeriesPoints b = points("cpu.availability:alpha", new long[] {t(1), t(2)}, 0.5, 0.6);
    AppendResponse first = append(b);
    AppendResponse again = append(b);
    assertEquals(2, first.getStored());
    assertEquals(0, again.getStored());
    assertEquals(2, again.getDuplicates());
    assertEquals(List.of(0.5, 0.6), values("cpu.availability:alpha", 10));
  }

  @Test
  void append_manySeries_storesEveryOne() {
    // More series than RRD4J's default pool of open databases (100).
    AppendRequest.Builder req = AppendRequest.newBuilder();
    for (int i = 0; i < 150; i++) {
      req.addBatches(points("tcp.latency:a->h" + i, new long[] {t(1), t(2)}, 1, 2));
    }
    assertEquals(
        300,
        stub.withDeadlineAfter(60, java.util.concurrent.TimeUnit.SECONDS)
            .append(req.build())
            .getStored());
    assertEquals(150, stub.listSeries(ListSeriesRequest.getDefaultInstance()).getSeriesCount());
  }

  @Test
  void fetch_byRangeAndLast_returnsSortedPoints() {
    append(points("memory.free:alpha", new long[] {t(3), t(1), t(2), t(4)}, 3, 1, 2, 4));
    assertEquals(List.of(3.0, 4.0), values("memory.free:alpha", 2));
    List<Double> range =
        stub
            .fetch(
                FetchRequest.newBuilder()
                    .setSeries("memory.free:alpha")
                    .setRange(TimeRange.newBuilder().setFromMs(t(2)).setToMs(t(3)))
                    .build())
            .getPointsList()
            .stream()
            .map(Measurement::getValue)
            .collect(Collectors.toList());
    assertEquals(List.of(2.0, 3.0), range);
  }

  @Test
  void fetch_keepsOnlyNewestRawPoints() {
    long[] ts = new long[1200];
    double[] vs = new double[1200];
    for (int i = 0; i < ts.length; i++) {
      ts[i] = t(i);
      vs[i] = i;
    }
    append(points("user.x:a", ts, vs));
    // None is archived yet, so none goes.
    assertEquals(1200, values("user.x:a", 100_000).size());
    // Once a read has folded them into the archive, the next sealed chunk lets retention run.
    stub.fetchConsolidated(
        FetchConsolidatedRequest.newBuilder()
            .setSeries("user.x:a")
            .setResolution(Resolution.RESOLUTION_MINUTE)
            .setRange(TimeRange.newBuilder().setFromMs(t(0)).setToMs(t(1200)))
            .build());
    long[] more = new long[120];
    double[] moreValues = new double[120];
    for (int i = 0; i < more.length; i++) {
      more[i] = t(1200 + i);
      moreValues[i] = 1200 + i;
    }
    append(points("user.x:a", more, moreValues));
    List<Double> all = values("user.x:a", 100_000);
    // Whole chunks of 120 points go at a time: between 1000 and 1120 stay, the newest ones.
    assertTrue(all.size() >= 1000 && all.size() < 1120, "kept " + all.size());
    assertEquals(1320.0 - all.size(), all.get(0));
    assertEquals(1319.0, all.get(all.size() - 1));
  }

  @Test
  void fetchConsolidated_minuteRows_areTimeWeightedAverages() {
    // Samples 10, 20, ... 60 at 5, 15, ... 55 s into one minute and 70 at 5 s into the next.
    // Each sample holds from the previous one to itself, so that minute averages
    // (5*10 + 10*(20+30+40+50+60) + 5*70) / 60 = 40.
    long base = (clock.millis() / 60_000 - 30) * 60_000;
    long[] ts = new long[8];
    double[] vs = new double[8];
    ts[0] = base - 5_000;
    vs[0] = 0;
    for (int i = 0; i < 7; i++) {
      ts[1 + i] = base + 5_000 + 10_000L * i;
      vs[1 + i] = 10 * (i + 1);
    }
    append(points("user.x:a", ts, vs));
    List<ConsolidatedPoint> rows =
        stub.fetchConsolidated(
                FetchConsolidatedRequest.newBuilder()
                    .setSeries("user.x:a")
                    .setResolution(Resolution.RESOLUTION_MINUTE)
                    .setRange(TimeRange.newBuilder().setFromMs(base).setToMs(base + 59_000))
                    .build())
            .getPointsList();
    assertEquals(1, rows.size(), rows.toString());
    assertEquals(base, rows.get(0).getTimestampMs());
    assertEquals(40, rows.get(0).getAverage(), 1e-9);
    assertEquals(40, rows.get(0).getMin(), 1e-9);
    assertEquals(40, rows.get(0).getMax(), 1e-9);
  }

  @Test
  void fetchConsolidated_foldsNewPointsIntoTheStoredArchive_visitAfterVisit() {
    // Each read folds what arrived since the last into the archive it stored then: minute one
    // holds 10 throughout, minute two 30, and a read with nothing new changes nothing.
    long base = (clock.millis() / 60_000 - 30) * 60_000;
    FetchConsolidatedRequest twoMinutes =
        FetchConsolidatedRequest.newBuilder()
            .setSeries("user.x:a")
            .setResolution(Resolution.RESOLUTION_MINUTE)
            .setRange(TimeRange.newBuilder().setFromMs(base).setToMs(base + 119_000))
            .build();
    append(points("user.x:a", new long[] {base - 1_000, base + 30_000, base + 60_000}, 10, 10, 10));
    assertEquals(1, stub.fetchConsolidated(twoMinutes).getPointsCount());
    append(points("user.x:a", new long[] {base + 90_000, base + 120_000}, 30, 30));
    for (int read = 0; read < 2; read++) {
      List<ConsolidatedPoint> rows = stub.fetchConsolidated(twoMinutes).getPointsList();
      assertEquals(2, rows.size(), rows.toString());
      assertEquals(10, rows.get(0).getAverage(), 1e-9);
      assertEquals(base + 60_000, rows.get(1).getTimestampMs());
      assertEquals(30, rows.get(1).getAverage(), 1e-9);
    }
  }

  @Test
  void listSeries_summarisesAndFilters() {
    append(
        points("cpu.availability:alpha", new long[] {t(1), t(2)}, 0.25, 0.75),
        points("tcp.bandwidth:alpha->beta", new long[] {t(1)}, 940));
    List<SeriesSummary> all =
        stub.listSeries(ListSeriesRequest.getDefaultInstance()).getSeriesList();
    assertEquals(2, all.size());
    SeriesSummary cpu = all.get(0);
    assertEquals("cpu.availability:alpha", cpu.getSeries());
    assertEquals("fraction", cpu.getUnit());
    assertEquals(2, cpu.getCount());
    assertEquals(0.75, cpu.getLastValue());
    assertEquals(t(2), cpu.getLastTimestampMs());
    assertEquals(
        1,
        stub.listSeries(ListSeriesRequest.newBuilder().setPattern("tcp.*").build())
            .getSeriesCount());
  }

  @Test
  void watch_sendsBacklogThenLiveAppends() throws Exception {
    append(points("tcp.latency:a->b", new long[] {t(1), t(2)}, 1, 2));
    LinkedBlockingQueue<WatchResponse> got = new LinkedBlockingQueue<>();
    MemoryHostGrpc.newStub(channel)
        .watch(
            WatchRequest.newBuilder().addPatterns("tcp.*:a->*").setSinceMs(t(1)).build(),
            collect(got));
    append(
        points("tcp.latency:a->b", new long[] {t(3)}, 3),
        points("cpu.availability:a", new long[] {t(3)}, 0.5));
    List<Double> seen = new ArrayList<>();
    while (seen.size() < 2) {
      WatchResponse r = got.poll(10, TimeUnit.SECONDS);
      assertTrue(r != null, "watch delivered " + seen);
      r.getBatchesList()
          .forEach(
              b -> {
                assertEquals("tcp.latency:a->b", b.getSeries());
                b.getPointsList().forEach(p -> seen.add(p.getValue()));
              });
    }
    assertEquals(List.of(2.0, 3.0), seen);
  }

  private static StreamObserver<WatchResponse> collect(LinkedBlockingQueue<WatchResponse> q) {
    return new StreamObserver<>() {
      @Override
      public void onNext(WatchResponse value) {
        q.add(value);
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {}
    };
  }

  @Test
  void crashImage_keepsEveryAcknowledgedPoint() throws Exception {
    for (int i = 0; i < 50; i++) {
      append(points("cpu.availability:alpha", new long[] {t(i)}, i / 100.0));
    }
    // What a kill -9 leaves is what the files hold now: copy them while the store is open.
    Path image = dir.resolveSibling(dir.getFileName() + "-image");
    copyTree(dir, image);
    try (MeasurementStore reopened = MeasurementStore.open(image, 1000, clock, watchPool)) {
      assertEquals(50, reopened.last("cpu.availability:alpha", 100).orElseThrow().size());
    }
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (var paths = java.nio.file.Files.walk(from)) {
      for (Iterator<Path> it = paths.iterator(); it.hasNext(); ) {
        Path p = it.next();
        java.nio.file.Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
  }

  @Test
  void badInput_isInvalidArgumentNamingTheField_andStoresNothing() {
    long now = clock.millis();
    assertInvalid("batches is empty", () -> stub.append(AppendRequest.getDefaultInstance()));
    assertInvalid("series name", () -> append(points("nocolon", new long[] {t(1)}, 1)));
    assertInvalid(
        "points is empty", () -> append(SeriesPoints.newBuilder().setSeries("user.x:a").build()));
    assertInvalid(
        "must be finite", () -> append(points("user.x:a", new long[] {t(1)}, Double.NaN)));
    assertInvalid(
        "must be finite",
        () -> append(points("user.x:a", new long[] {t(1)}, Double.POSITIVE_INFINITY)));
    assertInvalid(
        "must be in [0, 10000000] Mbit/s",
        () -> append(points("tcp.bandwidth:a->b", new long[] {t(1)}, -5)));
    assertInvalid("in the future", () -> append(points("user.x:a", new long[] {now + 120_000}, 1)));
    assertInvalid("timestamp_ms", () -> append(points("user.x:a", new long[] {0}, 1)));
    long[] many = new long[10_001];
    for (int i = 0; i < many.length; i++) {
      many[i] = t(1) + i;
    }
    assertInvalid(
        "more than 10000", () -> append(points("user.x:a", many, new double[many.length])));
    // A good point beside a bad one is not stored either.
    assertInvalid(
        "batches[1]",
        () ->
            append(
                points("user.x:a", new long[] {t(1)}, 1),
                points("user.x:b", new long[] {t(1)}, Double.NaN)));
    assertEquals(0, stub.listSeries(ListSeriesRequest.getDefaultInstance()).getSeriesCount());

    assertInvalid(
        "last",
        () -> stub.fetch(FetchRequest.newBuilder().setSeries("user.x:a").setLast(0).build()));
    assertInvalid(
        "selection", () -> stub.fetch(FetchRequest.newBuilder().setSeries("user.x:a").build()));
    assertInvalid(
        "from_ms",
        () ->
            stub.fetch(
                FetchRequest.newBuilder()
                    .setSeries("user.x:a")
                    .setRange(TimeRange.newBuilder().setFromMs(10).setToMs(5))
                    .build()));
    assertInvalid(
        "resolution",
        () ->
            stub.fetchConsolidated(
                FetchConsolidatedRequest.newBuilder().setSeries("user.x:a").build()));
    assertInvalid(
        "pattern", () -> stub.listSeries(ListSeriesRequest.newBuilder().setPattern("a b").build()));
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> values("user.x:unknown", 1));
    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
    StatusRuntimeException w =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                MemoryHostGrpc.newBlockingStub(channel)
                    .watch(WatchRequest.getDefaultInstance())
                    .hasNext());
    assertEquals(Status.Code.INVALID_ARGUMENT, w.getStatus().getCode());
  }

  private static void assertInvalid(String fragment, Runnable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.toString());
    assertTrue(e.getStatus().getDescription().contains(fragment), e.getStatus().getDescription());
  }
}
