package org.netweather.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.FetchConsolidatedResponse;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.GetForecastsResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.Resolution;
import org.netweather.api.v1.SeriesSummary;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.InProcessChannels;

/** Every call of the client against in-process fakes of the daemons it finds by name. */
class NetWeatherClientTest {
  private static final String CPU = "cpu.availability:alpha";

  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  private final FakeNameserver ns = new FakeNameserver();
  private final FakeMemoryHost memory = new FakeMemoryHost();
  private final FakeForecaster forecaster = new FakeForecaster();
  private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
  private String nsName;
  private ManagedChannel nsChannel;
  private NetWeatherClient client;

  /** Starts {@code services} under a fresh name (not direct: deadlines must be able to fire). */
  private String serve(BindableService... services) throws IOException {
    String name = GrpcCleanupExtension.newName();
    InProcessServerBuilder b = InProcessServerBuilder.forName(name);
    for (BindableService s : services) {
      b.addService(s);
    }
    grpc.register(b.build().start());
    return name;
  }

  private void register(String name, String kind, String server, String cluster) {
    Registration.Builder r =
        Registration.newBuilder().setName(name).setKind(kind).setAddress(server + ":1");
    if (cluster != null) {
      r.putAttributes("cluster", cluster);
    }
    ns.registrations.add(r.build());
  }

  @BeforeEach
  void setUp() throws IOException {
    nsName = serve(ns);
    HealthStatusManager health = new HealthStatusManager();
    String mem = serve(memory, health.getHealthService());
    ns.memoryHost = mem + ":1";
    register("memory@m", "memory", mem, null);
    register("forecaster@f", "forecaster", serve(forecaster), null);
    register("proxy@a", "proxy", serve(new FakeProxy("a")), "a");
    register("proxy@b", "proxy", serve(new FakeProxy("b")), "b");
    nsChannel = grpc.channel(nsName);
    client = builder().build();
  }

  private NetWeatherClientBuilder builder() {
    return NetWeatherClient.forChannel(nsChannel)
        .deadline(Duration.ofSeconds(5))
        .backoff(Duration.ofMillis(100), sleeps::add)
        .channels(InProcessChannels::forAddress);
  }

  private static Measurement point(long t, double v) {
    return FakeMemoryHost.point(t, v);
  }

  // ---- measurements ----

  @Test
  void put_thenLastAndRange_readItBack() {
    AppendResponse r =
        client.put(CPU, List.of(point(1000, 0.5), point(2000, 0.6), point(3000, 0.7)));
    assertEquals(3, r.getStored());
    assertEquals(1, client.put(CPU, List.of(point(3000, 0.7))).getDuplicates());
    assertEquals(List.of(point(2000, 0.6), point(3000, 0.7)), client.last(CPU, 2).getPointsList());
    assertEquals(
        List.of(point(1000, 0.5), point(2000, 0.6)), client.range(CPU, 1000, 2000).getPointsList());
  }

  @Test
  void consolidated_asksForTheResolutionAndRange() {
    client.put(CPU, List.of(point(1000, 0.2), point(2000, 0.4)));
    FetchConsolidatedResponse r = client.consolidated(CPU, Resolution.RESOLUTION_HOUR, 0, 0);
    assertEquals(Resolution.RESOLUTION_HOUR, r.getResolution());
    assertEquals(0.3, r.getPoints(0).getAverage(), 1e-12);
  }

  @Test
  void series_listsEveryMemoryHostsSeriesSorted() {
    client.put("memory.free:b", List.of(point(1000, 1)));
    client.put("cpu.availability:a", List.of(point(1000, 1)));
    assertEquals(
        List.of("cpu.availability:a", "memory.free:b"),
        client.series("").stream().map(SeriesSummary::getSeries).toList());
  }

  @Test
  void watch_streamsStoredPoints_andCloseCancelsIt() throws Exception {
    client.put(CPU, List.of(point(1000, 0.5), point(2000, 0.6)));
    BlockingQueue<WatchResponse> got = new LinkedBlockingQueue<>();
    Subscription s =
        client.watch(
            ns.memoryHost,
            WatchRequest.newBuilder().addPatterns(CPU).setSinceMs(1000).build(),
            collect(got));
    WatchResponse first = got.poll(5, TimeUnit.SECONDS);
    assertEquals(List.of(point(2000, 0.6)), first.getBatches(0).getPointsList());
    s.close();
    assertTrue(memory.watchCancelled.await(5, TimeUnit.SECONDS), "server saw no cancel");
  }

  // ---- forecasts ----

  @Test
  void forecast_one_batch_andPoints() {
    Forecast one = client.forecast(CPU, Criterion.CRITERION_MAE);
    assertEquals(CPU.length(), one.getValue(), 0);
    assertEquals(Criterion.CRITERION_MAE, one.getCriterion());
    GetForecastsResponse batch = client.forecasts(List.of("a:x", "b:*"), Criterion.CRITERION_MSE);
    assertEquals(
        List.of("a:x"), batch.getForecastsList().stream().map(Forecast::getSeries).toList());
    assertEquals(List.of("b:*"), batch.getNotFoundList());
    Forecast offline =
        client.forecastPoints("trace", List.of(point(1, 2), point(2, 4)), Criterion.CRITERION_MSE);
    assertEquals(3, offline.getValue(), 1e-12);
    assertEquals(2, offline.getCount());
  }

  @Test
  void watchForecasts_deliversUpdates_andCloseCancelsIt() throws Exception {
    BlockingQueue<ForecastUpdate> got = new LinkedBlockingQueue<>();
    Subscription s =
        client.watchForecasts(List.of("a:x", "b:yy"), Criterion.CRITERION_MSE, collect(got));
    assertEquals("a:x", got.poll(5, TimeUnit.SECONDS).getForecast().getSeries());
    assertEquals("b:yy", got.poll(5, TimeUnit.SECONDS).getForecast().getSeries());
    s.close();
    assertTrue(forecaster.watchCancelled.await(5, TimeUnit.SECONDS), "server saw no cancel");
  }

  @Test
  void forecast_withoutForecaster_namesTheNameserver() {
    ns.registrations.removeIf(r -> r.getKind().equals("forecaster"));
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class, () -> client.forecast(CPU, Criterion.CRITERION_MSE));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertEquals(
        "no forecaster is registered with " + client.nameserver(), e.getStatus().getDescription());
  }

  // ---- snapshots ----

  @Test
  void snapshot_ofANamedCluster_comesFromItsProxy() {
    assertEquals("b", client.snapshot("b").getCluster());
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> client.snapshot("zz"));
    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
  }

  @Test
  void snapshot_unnamed_isTheOnlyProxys_orNamesTheChoices() {
    NetWeatherClient.AmbiguousClusterException e =
        assertThrows(NetWeatherClient.AmbiguousClusterException.class, () -> client.snapshot(null));
    assertEquals(List.of("a", "b"), e.clusters());
    ns.registrations.removeIf(r -> r.getName().equals("proxy@b"));
    assertEquals("a", client.snapshot(null).getCluster());
  }

  @Test
  void watchSnapshot_deliversEachSnapshot() throws Exception {
    BlockingQueue<ClusterSnapshot> got = new LinkedBlockingQueue<>();
    CountDownLatch done = new CountDownLatch(1);
    client.watchSnapshot(
        "a",
        Duration.ofSeconds(1),
        new StreamObserver<>() {
          @Override
          public void onNext(ClusterSnapshot value) {
            got.add(value);
          }

          @Override
          public void onError(Throwable t) {}

          @Override
          public void onCompleted() {
            done.countDown();
          }
        });
    assertTrue(done.await(5, TimeUnit.SECONDS));
    List<ClusterSnapshot> all = new ArrayList<>(got);
    assertEquals(2, all.size());
    assertTrue(all.get(1).getTakenMs() > all.get(0).getTakenMs());
  }

  // ---- registrations and cliques ----

  @Test
  void registry_registerLookupHeartbeatUnregister() {
    NameserverCalls r = client.registry();
    Registration me =
        Registration.newBuilder()
            .setName("sensor@x")
            .setKind("sensor")
            .setAddress("x:8060")
            .putAttributes("host", "x")
            .build();
    String lease = r.register(me, 30).getLeaseId();
    assertEquals(me, r.lookup("sensor@x"));
    assertEquals(List.of(me), client.search("(&(kind=sensor)(host=x))"));
    assertEquals(42, r.heartbeat(lease).getExpiresMs());
    assertEquals(
        Status.Code.NOT_FOUND,
        assertThrows(StatusRuntimeException.class, () -> r.heartbeat("bogus"))
            .getStatus()
            .getCode());
    assertTrue(r.unregister("sensor@x"));
    assertFalse(r.unregister("sensor@x"));
  }

  @Test
  void cliques_putListDelete() {
    Clique c =
        Clique.newBuilder()
            .setName("lab")
            .addMembers("a")
            .addMembers("b")
            .setPeriodSeconds(60)
            .build();
    assertEquals(c, client.putClique(c));
    assertEquals(List.of(c), client.cliques("a"));
    assertEquals(List.of(), client.cliques("z"));
    assertTrue(client.deleteClique("lab"));
    assertFalse(client.deleteClique("lab"));
  }

  @Test
  void assignAndDirectory_nameTheMemoryHost() {
    assertEquals(ns.memoryHost, client.assign(List.of(CPU)).get(0).getAddress());
    assertEquals(ns.memoryHost, client.directory(CPU).get(0).getAddress());
  }

  @Test
  void health_reportsTheDaemonsServingStatus() {
    assertEquals(ServingStatus.SERVING, client.health(ns.memoryHost, Duration.ofSeconds(2)));
  }

  // ---- retries and deadlines ----

  @Test
  void append_unavailable_isRetriedWithGrowingBackoff() {
    memory.failures.fail("append", Status.UNAVAILABLE, 2);
    assertEquals(1, client.put(CPU, List.of(point(1000, 1))).getStored());
    assertEquals(3, memory.failures.calls("append"));
    assertEquals(List.of(Duration.ofMillis(100), Duration.ofMillis(200)), sleeps);
  }

  @Test
  void append_stillUnavailable_givesUpAfterMaxAttemptsAndAsksTheDirectoryAgain() {
    memory.failures.fail("append", Status.UNAVAILABLE, 10);
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> client.put(CPU, List.of(point(1000, 1))));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    // Three tries, then three more at the address the directory gives again.
    assertEquals(6, memory.failures.calls("append"));
    assertEquals(2, ns.failures.calls("assignSeries"));
  }

  @Test
  void invalidArgument_isNeverRetried() {
    memory.failures.fail("append", Status.INVALID_ARGUMENT, 1);
    assertThrows(StatusRuntimeException.class, () -> client.put(CPU, List.of(point(1, 1))));
    assertEquals(1, memory.failures.calls("append"));
    assertEquals(List.of(), sleeps);
  }

  @Test
  void nameserverWrites_retryOnlyOnTheirDocumentedCodes() {
    Registration me =
        Registration.newBuilder().setName("s@x").setKind("sensor").setAddress("x:1").build();
    ns.failures.fail("register", Status.UNAVAILABLE, 1);
    client.registry().register(me, 30);
    assertEquals(2, ns.failures.calls("register"));
    ns.failures.fail("register", Status.RESOURCE_EXHAUSTED, 1);
    assertThrows(StatusRuntimeException.class, () -> client.registry().register(me, 30));
    assertEquals(3, ns.failures.calls("register"));
  }

  @Test
  void callsWithoutARetryPromise_areTriedOnce() {
    ns.failures.fail("heartbeat", Status.UNAVAILABLE, 1);
    assertThrows(StatusRuntimeException.class, () -> client.registry().heartbeat("lease-x"));
    assertEquals(1, ns.failures.calls("heartbeat"));
    ns.failures.fail("search", Status.UNAVAILABLE, 1);
    assertThrows(StatusRuntimeException.class, () -> client.search(""));
    assertEquals(1, ns.failures.calls("search"));
  }

  @Test
  void reads_ofForecasterAndProxy_areRetried() {
    forecaster.failures.fail("getForecast", Status.UNAVAILABLE, 1);
    assertEquals(CPU, client.forecast(CPU, Criterion.CRITERION_MSE).getSeries());
    assertEquals(2, forecaster.failures.calls("getForecast"));
  }

  @Test
  void maxAttemptsOne_neverRetries() {
    try (NetWeatherClient once = builder().maxAttempts(1).build()) {
      memory.failures.fail("append", Status.UNAVAILABLE, 1);
      // put's own second try after asking the directory again still happens, once.
      assertEquals(1, once.put(CPU, List.of(point(1, 1))).getStored());
      assertEquals(2, memory.failures.calls("append"));
      assertEquals(List.of(), sleeps);
    }
  }

  @Test
  void deadline_coversTheCallWithItsRetries() {
    forecaster.failures.delayMs = 3000;
    try (NetWeatherClient quick = builder().deadline(Duration.ofMillis(300)).build()) {
      long t0 = System.nanoTime();
      StatusRuntimeException e =
          assertThrows(
              StatusRuntimeException.class, () -> quick.forecast(CPU, Criterion.CRITERION_MSE));
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
      assertTrue(ms < 1500, ms + " ms");
      assertEquals(1, forecaster.failures.calls("getForecast"));
    }
  }

  // ---- channels ----

  @Test
  void close_leavesAGivenChannelOpen_andClosesTheOnesItOpened() {
    List<ManagedChannel> opened = new CopyOnWriteArrayList<>();
    NetWeatherClient c =
        NetWeatherClient.forChannel(nsChannel)
            .channels(
                a -> {
                  ManagedChannel ch = InProcessChannels.forAddress(a);
                  opened.add(ch);
                  return ch;
                })
            .build();
    c.forecast(CPU, Criterion.CRITERION_MSE);
    c.close();
    assertEquals(1, opened.size());
    assertTrue(opened.get(0).isShutdown());
    assertFalse(nsChannel.isShutdown());
  }

  @Test
  void forAddress_ownsTheNameserverChannelItBuilt() {
    List<ManagedChannel> opened = new CopyOnWriteArrayList<>();
    NetWeatherClient c =
        NetWeatherClient.forAddress(nsName + ":1")
            .channels(
                a -> {
                  ManagedChannel ch = InProcessChannels.forAddress(a);
                  opened.add(ch);
                  return ch;
                })
            .build();
    assertEquals(nsName + ":1", c.nameserver());
    assertEquals(4, c.search("").size());
    c.close();
    assertEquals(1, opened.size());
    assertTrue(opened.get(0).isShutdown());
  }

  @Test
  void builder_rejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> builder().deadline(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> builder().maxAttempts(0));
  }

  private static <T> StreamObserver<T> collect(BlockingQueue<T> into) {
    return new StreamObserver<>() {
      @Override
      public void onNext(T value) {
        into.add(value);
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {}
    };
  }
}
