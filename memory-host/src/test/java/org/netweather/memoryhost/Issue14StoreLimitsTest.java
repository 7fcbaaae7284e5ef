package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.ConsolidatedPoint;
import org.netweather.api.v1.DeleteSeriesRequest;
import org.netweather.api.v1.DeleteSeriesResponse;
import org.netweather.api.v1.FetchConsolidatedRequest;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.ListSeriesRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.Resolution;
import org.netweather.api.v1.RetentionRequest;
import org.netweather.api.v1.RetentionResponse;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.TimeRange;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;

/** Limits on series creation, deletion and retention, through the gRPC service. */
class Issue14StoreLimitsTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();
  private final ExecutorService watchPool = Executors.newSingleThreadExecutor();
  private MeasurementStore store;
  private MemoryHostGrpc.MemoryHostBlockingStub stub;

  private void open(StoreOptions options) throws Exception {
    store = MeasurementStore.open(options, clock, watchPool);
    stub = MemoryHostGrpc.newBlockingStub(grpc.inProcess(new MemoryHostService(store, clock)));
  }

  @AfterEach
  void tearDown() throws Exception {
    if (store != null) {
      store.close();
    }
    watchPool.shutdownNow();
  }

  private static SeriesPoints point(String series, long t, double v) {
    return SeriesPoints.newBuilder()
        .setSeries(series)
        .addPoints(Measurement.newBuilder().setTimestampMs(t).setValue(v))
        .build();
  }

  private AppendRequest newSeries(String prefix, int n) {
    AppendRequest.Builder req = AppendRequest.newBuilder();
    for (int i = 0; i < n; i++) {
      req.addBatches(point("user.x:" + prefix + i, clock.millis() - 1000, i));
    }
    return req.build();
  }

  @Test
  void append_of10000NewSeries_isRefusedNamingTheLimit_andLeavesNoTrace() throws Exception {
    open(StoreOptions.defaults(dir));
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> stub.append(newSeries("s", 10_000)));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    assertTrue(
        e.getStatus().getDescription().contains("maxNewSeriesPerCall"),
        e.getStatus().getDescription());
    assertEquals(0, stub.listSeries(ListSeriesRequest.getDefaultInstance()).getSeriesCount());
    // The store still serves: a normal append goes through.
    assertEquals(1, stub.append(newSeries("ok", 1)).getStored());
    store.close();
    store = null;
    open(StoreOptions.defaults(dir));
    assertEquals(1, store.seriesCount(), "nothing of the refused append after a restart");
  }

  @Test
  void append_beyondMaxSeries_isRefused_butExistingSeriesStillTakePoints() throws Exception {
    open(StoreOptions.defaults(dir).withLimits(5, 1000, 20_000));
    assertEquals(5, stub.append(newSeries("a", 5)).getStored());
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> stub.append(newSeries("b", 1)));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("maxSeries"));
    assertEquals(
        1,
        stub.append(
                AppendRequest.newBuilder()
                    .addBatches(point("user.x:a0", clock.millis(), 7))
                    .build())
            .getStored());
  }

  @Test
  void append_perCallerCreationRate_isLimited() throws Exception {
    open(StoreOptions.defaults(dir).withLimits(1000, 100, 150));
    stub.append(newSeries("a", 100));
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> stub.append(newSeries("b", 100)));
    assertTrue(e.getStatus().getDescription().contains("maxNewSeriesPerCallerPerMinute"));
    clock.advance(java.time.Duration.ofSeconds(40)); // 100 more tokens
    assertEquals(100, stub.append(newSeries("b", 100)).getStored());
  }

  @Test
  void deleteSeries_dryRunListsOnly_thenDeletesDurably_andTellsWatchers() throws Exception {
    open(StoreOptions.defaults(dir));
    stub.append(newSeries("keep", 2));
    stub.append(
        AppendRequest.newBuilder()
            .addBatches(point("tcp.latency:a->b", clock.millis(), 1))
            .addBatches(point("tcp.latency:a->c", clock.millis(), 2))
            .build());
    LinkedBlockingQueue<WatchResponse> seen = new LinkedBlockingQueue<>();
    MemoryHostGrpc.newStub(grpc.inProcess(new MemoryHostService(store, clock)))
        .watch(
            WatchRequest.newBuilder().addPatterns("tcp.*").setLiveOnly(true).build(),
            new io.grpc.stub.StreamObserver<>() {
              @Override
              public void onNext(WatchResponse r) {
                seen.add(r);
              }

              @Override
              public void onError(Throwable t) {}

              @Override
              public void onCompleted() {}
            });
    waitFor(() -> store.watchStreams() == 1);

    DeleteSeriesResponse dry =
        stub.deleteSeries(
            DeleteSeriesRequest.newBuilder()
                .setPattern("tcp.latency:a->*")
                .setDryRun(true)
                .build());
    assertEquals(List.of("tcp.latency:a->b", "tcp.latency:a->c"), dry.getSeriesList());
    assertEquals(4, store.seriesCount());

    DeleteSeriesResponse unforced =
        stub.deleteSeries(DeleteSeriesRequest.newBuilder().setPattern("tcp.latency:a->*").build());
    assertTrue(unforced.getDryRun(), "a request without force is a dry run");
    assertEquals(2, unforced.getCount());
    assertEquals(4, store.seriesCount());
    DeleteSeriesResponse forcedButDry =
        stub.deleteSeries(
            DeleteSeriesRequest.newBuilder()
                .setPattern("tcp.latency:a->*")
                .setForce(true)
                .setDryRun(true)
                .build());
    assertTrue(forcedButDry.getDryRun());
    assertEquals(4, store.seriesCount());

    DeleteSeriesResponse done =
        stub.deleteSeries(
            DeleteSeriesRequest.newBuilder().setPattern("tcp.latency:a->*").setForce(true).build());
    assertFalse(done.getDryRun());
    assertEquals(2, done.getCount());
    assertEquals(2, store.seriesCount());
    StatusRuntimeException gone =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                stub.fetch(
                    FetchRequest.newBuilder().setSeries("tcp.latency:a->b").setLast(1).build()));
    assertEquals(Status.Code.NOT_FOUND, gone.getStatus().getCode());
    WatchResponse notice = seen.poll(5, TimeUnit.SECONDS);
    assertEquals(List.of("tcp.latency:a->b", "tcp.latency:a->c"), notice.getDeletedSeriesList());

    store.close();
    store = null;
    open(StoreOptions.defaults(dir));
    assertEquals(List.of("user.x:keep0", "user.x:keep1"), store.names(null));
  }

  @Test
  void retention_isReadSetCheckedAndKeptAcrossRestarts() throws Exception {
    open(StoreOptions.defaults(dir));
    RetentionResponse now = stub.retention(RetentionRequest.getDefaultInstance());
    assertEquals(10_000, now.getMaxPoints());
    assertEquals(0, now.getMaxAgeSeconds());
    StatusRuntimeException bad =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.retention(RetentionRequest.newBuilder().setMaxPoints(5).build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, bad.getStatus().getCode());
    assertTrue(bad.getStatus().getDescription().contains("max_points"));
    stub.retention(RetentionRequest.newBuilder().setMaxPoints(2000).setMaxAgeSeconds(7200).build());
    store.close();
    store = null;
    open(StoreOptions.defaults(dir));
    RetentionResponse kept = stub.retention(RetentionRequest.getDefaultInstance());
    assertEquals(2000, kept.getMaxPoints());
    assertEquals(7200, kept.getMaxAgeSeconds());
  }

  @Test
  void retentionByAge_dropsOldChunks_onlyOnceTheirPointsAreArchived() throws Exception {
    open(StoreOptions.defaults(dir));
    stub.retention(RetentionRequest.newBuilder().setMaxAgeSeconds(3600).build());
    long start = clock.millis() - 3 * 3600_000L - 1800_000L;
    stub.append(tenSecondPoints("user.x:old", start, 0, 1080)); // three hours, to 30 min ago
    // Nothing is archived yet, so nothing may go, however old.
    assertEquals(1080, store.count("user.x:old"));

    // A read of the archive folds every raw point in; the next sealed chunk lets retention run.
    List<ConsolidatedPoint> hours = hourRows("user.x:old", start);
    assertTrue(hours.size() >= 2, "hour rows " + hours.size());
    stub.append(tenSecondPoints("user.x:old", start, 1080, 120));
    long kept = store.count("user.x:old");
    // Chunks of 120 points (20 minutes) that ended over an hour ago are gone...
    assertEquals(360, kept);
    // ... and live on in the archive.
    assertEquals(hours.get(0), hourRows("user.x:old", start).get(0));
  }

  private List<ConsolidatedPoint> hourRows(String series, long fromMs) {
    return stub.fetchConsolidated(
            FetchConsolidatedRequest.newBuilder()
                .setSeries(series)
                .setResolution(Resolution.RESOLUTION_HOUR)
                .setRange(TimeRange.newBuilder().setFromMs(fromMs).setToMs(clock.millis()))
                .build())
        .getPointsList();
  }

  /** {@code n} points of {@code series}, one every 10 s from {@code start + first * 10 s}. */
  private static AppendRequest tenSecondPoints(String series, long start, int first, int n) {
    SeriesPoints.Builder sp = SeriesPoints.newBuilder().setSeries(series);
    for (int i = first; i < first + n; i++) {
      sp.addPoints(Measurement.newBuilder().setTimestampMs(start + i * 10_000L).setValue(i));
    }
    return AppendRequest.newBuilder().addBatches(sp).build();
  }

  @Test
  void longestNames_areStoredAndReadBack_andLongerOnesAreInvalidArgument() throws Exception {
    open(StoreOptions.defaults(dir));
    String longest = "user.x:" + "a".repeat(org.netweather.model.SeriesName.MAX_LENGTH - 7);
    String odd = "tcp.latency:" + "A-b.9_".repeat(20) + "->" + "z".repeat(100);
    assertEquals(
        1,
        stub.append(
                AppendRequest.newBuilder().addBatches(point(longest, clock.millis(), 1)).build())
            .getStored());
    assertEquals(
        1,
        stub.append(
                AppendRequest.newBuilder()
                    .addBatches(
                        point(odd.substring(0, Math.min(odd.length(), 256)), clock.millis(), 2))
                    .build())
            .getStored());
    assertEquals(
        1,
        stub.fetch(FetchRequest.newBuilder().setSeries(longest).setLast(1).build())
            .getPointsCount());
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                stub.append(
                    AppendRequest.newBuilder()
                        .addBatches(point(longest + "a", clock.millis(), 1))
                        .build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertTrue(
        !e.getStatus().getDescription().contains(dir.toString()),
        "no server path in " + e.getStatus().getDescription());
    store.close();
    store = null;
    open(StoreOptions.defaults(dir));
    assertEquals(2, store.seriesCount());
  }

  @Test
  void listSeries_pagesInNameOrder_withoutLosingOrRepeatingAny() throws Exception {
    open(StoreOptions.defaults(dir));
    stub.append(newSeries("p", 1000));
    stub.append(
        AppendRequest.newBuilder()
            .addBatches(point("tcp.latency:a->b", clock.millis(), 1))
            .build());
    List<String> seen = new java.util.ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      org.netweather.api.v1.ListSeriesResponse page =
          stub.listSeries(
              ListSeriesRequest.newBuilder()
                  .setPattern("user.x:*")
                  .setPageSize(300)
                  .setPageToken(token)
                  .build());
      page.getSeriesList().forEach(x -> seen.add(x.getSeries()));
      token = page.getNextPageToken();
      pages++;
    } while (!token.isEmpty());
    assertEquals(4, pages);
    assertEquals(1000, seen.size());
    assertEquals(1000, new java.util.HashSet<>(seen).size());
    List<String> sortedCopy = new java.util.ArrayList<>(seen);
    java.util.Collections.sort(sortedCopy);
    assertEquals(sortedCopy, seen);
    // Without a size, a page holds at most 1000.
    assertEquals(1000, stub.listSeries(ListSeriesRequest.getDefaultInstance()).getSeriesCount());
    // A listing starts where its pattern's literal prefix does, and finds what lies past it too.
    for (String pattern : List.of("tcp.*", "tcp.latency:a->b", "*:a->b", "t*b")) {
      assertEquals(
          List.of("tcp.latency:a->b"),
          stub
              .listSeries(ListSeriesRequest.newBuilder().setPattern(pattern).build())
              .getSeriesList()
              .stream()
              .map(x -> x.getSeries())
              .toList(),
          pattern);
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier c) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 5000;
    while (!c.getAsBoolean() && System.currentTimeMillis() < deadline) {
      Thread.sleep(10);
    }
  }
}
