package org.netweather.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.GetForecastsResponse;
import org.netweather.api.v1.Registration;
import org.netweather.model.shard.Shards;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.InProcessChannels;
import org.netweather.testing.Poll;

/**
 * The client's forecast calls on a site of three forecasters that share the shards, each a contract
 * double found through an in-process nameserver.
 */
class ShardRoutingTest {
  private static final int HOSTS = 16;
  private static final Duration WAIT = Duration.ofSeconds(20);

  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  private final FakeNameserver ns = new FakeNameserver();
  private final ContractSite site = new ContractSite(ContractSite.hosts(HOSTS));
  private final Map<String, Server> servers = new ConcurrentHashMap<>();
  private final AtomicLong now = new AtomicLong();
  private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1);
  private NetWeatherClient client;
  private String nsName;

  @BeforeEach
  void setUp() throws IOException {
    nsName = GrpcCleanupExtension.newName();
    grpc.register(InProcessServerBuilder.forName(nsName).addService(ns).build().start());
    for (String name : List.of("f1", "f2", "f3")) {
      start(name);
    }
    site.serve(Set.of("f1", "f2", "f3"));
    for (ContractForecaster f : site.byName.values()) {
      assertFalse(cpuSeriesOf(f).isEmpty(), f.name + " serves none of the test's hosts");
    }
    ManagedChannel nsChannel = grpc.channel(nsName);
    client =
        NetWeatherClient.forChannel(nsChannel)
            .deadline(Duration.ofSeconds(5))
            .backoff(Duration.ofMillis(1), d -> {})
            .channels(InProcessChannels::forAddress)
            .forecasterRefresh(Duration.ofSeconds(10))
            .nanoTime(now::get)
            .scheduler(scheduler)
            .build();
  }

  @AfterEach
  void tearDown() {
    client.close();
    scheduler.shutdownNow();
  }

  /** Starts and registers a forecaster double (not yet serving anything). */
  private ContractForecaster start(String name) throws IOException {
    ContractForecaster f = site.add(name);
    String server = GrpcCleanupExtension.newName();
    servers.put(name, grpc.register(InProcessServerBuilder.forName(server).addService(f).build()));
    servers.get(name).start();
    f.address = server + ":1";
    ns.registrations.add(
        Registration.newBuilder()
            .setName(name)
            .setKind("forecaster")
            .setAddress(f.address)
            .putAttributes(ShardRouter.SHARDING, ShardRouter.RENDEZVOUS)
            .build());
    return f;
  }

  private void stop(String name) {
    ns.registrations.removeIf(r -> r.getName().equals(name));
    servers.get(name).shutdownNow();
  }

  private List<String> cpuSeriesOf(ContractForecaster f) {
    return site.series.stream().filter(s -> s.startsWith("cpu.") && site.ownerOf(s) == f).toList();
  }

  private static List<String> called(ContractForecaster f, String rpc) {
    return f.calls.stream().filter(c -> c.startsWith(rpc + " ")).toList();
  }

  // ---- GetForecast ----

  @Test
  void forecast_reachesTheOwnerOfTheSeriesShard_only() {
    for (int i = 0; i < HOSTS; i++) {
      String s = "cpu.availability:h" + i;
      assertEquals(site.ownerOf(s).number, client.forecast(s, Criterion.CRITERION_MSE).getValue());
    }
    for (ContractForecaster f : site.byName.values()) {
      assertEquals(cpuSeriesOf(f).size(), called(f, "getForecast").size(), f.name);
    }
  }

  @Test
  void forecast_withAStaleList_isRetriedOnceAtTheHintedOwner() throws IOException {
    client.forecast("cpu.availability:h0", Criterion.CRITERION_MSE); // lists f1..f3
    ContractForecaster f4 = start("f4");
    site.serve(Set.of("f1", "f2", "f3", "f4"));
    String moved = cpuSeriesOf(f4).get(0);
    now.addAndGet(Duration.ofSeconds(1).toNanos()); // within the refresh: the list is kept

    Forecast f = client.forecast(moved, Criterion.CRITERION_MSE);

    assertEquals(4, f.getValue());
    assertEquals(List.of("getForecast " + moved), called(f4, "getForecast"));
    assertTrue(client.forecasters().current().members().contains("f4"), "list not refreshed");
  }

  @Test
  void forecast_withAStaleListAndNoHint_isRetriedAtTheFreshOwner() throws IOException {
    client.forecast("cpu.availability:h0", Criterion.CRITERION_MSE);
    ContractForecaster f4 = start("f4");
    site.serve(Set.of("f1", "f2", "f3", "f4"));
    site.byName.values().forEach(f -> f.hints = false);
    now.addAndGet(Duration.ofSeconds(1).toNanos());

    assertEquals(4, client.forecast(cpuSeriesOf(f4).get(0), Criterion.CRITERION_MSE).getValue());
  }

  @Test
  void forecast_duringAHandoff_reachesThePreviousOwnerThroughTheHint() throws IOException {
    // f4 is listed, so callers compute it as owner, but has warmed nothing yet.
    ContractForecaster f4 = start("f4");
    site.serve(Set.of("f1", "f2", "f3", "f4"));
    String moving = cpuSeriesOf(f4).get(0);
    site.serve(Set.of("f1", "f2", "f3"));

    Forecast f = client.forecast(moving, Criterion.CRITERION_MSE);

    assertEquals(site.ownerOf(moving).number, f.getValue());
    assertEquals(1, called(f4, "getForecast").size(), "the computed owner is asked first");
  }

  @Test
  void forecast_ofAnUnservedShard_failsWithTheForecastersAnswer() throws IOException {
    ContractForecaster f4 = start("f4");
    site.serve(Set.of("f1", "f2", "f3", "f4"));
    String lost = cpuSeriesOf(f4).get(0);
    site.serve(Set.of()); // nobody serves anything: every hint is empty
    StatusRuntimeException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            StatusRuntimeException.class, () -> client.forecast(lost, Criterion.CRITERION_MSE));
    assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
    assertTrue(ShardNotOwned.of(e).isPresent());
  }

  // ---- GetForecasts ----

  @Test
  void forecasts_splitNamesByOwner_fanPatternsOut_andMerge() {
    List<String> asked =
        List.of(
            "cpu.availability:h0",
            "cpu.availability:h1",
            "cpu.availability:h2",
            "cpu.availability:nosuch",
            "tcp.bandwidth:*->h0",
            "*:h3->*",
            "memory.free:*");

    GetForecastsResponse r = client.forecasts(asked, Criterion.CRITERION_MSE);

    List<String> got = r.getForecastsList().stream().map(Forecast::getSeries).toList();
    assertEquals(new HashSet<>(got).size(), got.size(), "a series answered twice");
    Set<String> want = new LinkedHashSet<>();
    want.addAll(List.of("cpu.availability:h0", "cpu.availability:h1", "cpu.availability:h2"));
    for (int i = 1; i < HOSTS; i++) {
      want.add("tcp.bandwidth:h" + i + "->h0");
    }
    for (int i = 0; i < HOSTS; i++) {
      if (i != 3) {
        want.add("tcp.bandwidth:h3->h" + i);
      }
    }
    assertEquals(want, new HashSet<>(got));
    assertEquals(List.copyOf(want).subList(0, 3), got.subList(0, 3), "names keep their order");
    for (Forecast f : r.getForecastsList()) {
      assertEquals(site.ownerOf(f.getSeries()).number, f.getValue(), f.getSeries());
    }
    assertEquals(List.of("cpu.availability:nosuch", "memory.free:*"), r.getNotFoundList());
    assertEquals(List.of(), r.getNotOwnedList());
    for (ContractForecaster f : site.byName.values()) {
      assertEquals(1, called(f, "getForecasts").size(), f.name + ": one call per forecaster");
    }
  }

  @Test
  void forecasts_namesAForecasterDoesNotOwn_areAskedOnceMoreWhereTheyAreServed()
      throws IOException {
    client.forecasts(List.of("cpu.availability:h0"), Criterion.CRITERION_MSE);
    ContractForecaster f4 = start("f4");
    site.serve(Set.of("f1", "f2", "f3", "f4"));
    List<String> movedToF4 = cpuSeriesOf(f4);
    now.addAndGet(Duration.ofSeconds(1).toNanos());
    // Stale list: the old owners disown them, and the fresh list sends them to f4.
    GetForecastsResponse r = client.forecasts(movedToF4, Criterion.CRITERION_MSE);
    assertEquals(movedToF4, r.getForecastsList().stream().map(Forecast::getSeries).toList());
    r.getForecastsList().forEach(f -> assertEquals(4, f.getValue()));

    // A handoff: f4 is listed but serves nothing yet; the previous owners still do.
    site.serve(Set.of("f1", "f2", "f3"));
    GetForecastsResponse h = client.forecasts(movedToF4, Criterion.CRITERION_MSE);
    assertEquals(movedToF4, h.getForecastsList().stream().map(Forecast::getSeries).toList());
    h.getForecastsList()
        .forEach(f -> assertEquals(site.ownerOf(f.getSeries()).number, f.getValue()));
    assertEquals(List.of(), h.getNotOwnedList());
    // A pattern naming one of those hosts is found where it is served, not at the owner-to-be.
    String host = movedToF4.get(0).substring(movedToF4.get(0).indexOf(':') + 1);
    GetForecastsResponse p =
        client.forecasts(List.of("*:" + host + "->*"), Criterion.CRITERION_MSE);
    assertEquals(HOSTS - 1, p.getForecastsCount());
    assertEquals(List.of(), p.getNotFoundList());
  }

  @Test
  void forecasts_whenAForecasterIsDown_failRatherThanAnswerInPart() {
    servers.get("f2").shutdownNow(); // still listed: its lease has not run out
    StatusRuntimeException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            StatusRuntimeException.class,
            () -> client.forecasts(List.of("cpu.availability:*"), Criterion.CRITERION_MSE));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains(site.byName.get("f2").address));
  }

  // ---- WatchForecasts ----

  /** The latest value of each series a watch delivered. */
  private static final class Latest implements StreamObserver<ForecastUpdate> {
    final Map<String, Double> values = new ConcurrentHashMap<>();
    final AtomicReference<Throwable> error = new AtomicReference<>();

    @Override
    public void onNext(ForecastUpdate u) {
      values.put(u.getForecast().getSeries(), u.getForecast().getValue());
    }

    @Override
    public void onError(Throwable t) {
      error.set(t);
    }

    @Override
    public void onCompleted() {}
  }

  private static final List<String> WATCHED = List.of("cpu.availability:*", "*:h1->*");

  private List<String> watchedSeries() {
    return site.series.stream()
        .filter(s -> s.startsWith("cpu.") || s.startsWith("tcp.bandwidth:h1->"))
        .toList();
  }

  /** How many watched series have the value of their current owner. */
  private long current(Latest latest) {
    return watchedSeries().stream()
        .filter(s -> Double.valueOf(site.ownerOf(s).number).equals(latest.values.get(s)))
        .count();
  }

  private void awaitCurrent(Latest latest) throws InterruptedException {
    int all = watchedSeries().size();
    assertEquals(all, Poll.until(() -> current(latest), n -> n == all, WAIT));
  }

  @Test
  void watch_streamsFromEachOwner_andRerouteWhenAForecasterStops() throws Exception {
    Latest latest = new Latest();
    Subscription s = client.watchForecasts(WATCHED, Criterion.CRITERION_MSE, latest);
    awaitCurrent(latest);
    for (ContractForecaster f : site.byName.values()) {
      assertEquals(1, f.watchers(), f.name + ": one stream per forecaster");
    }

    stop("f3");
    site.serve(Set.of("f1", "f2"));
    // The survivors end their streams as their shard sets grow.
    site.byName.get("f1").shardMoved(Shards.ofHost("h1"));
    site.byName.get("f2").shardMoved(Shards.ofHost("h1"));
    awaitCurrent(latest);
    assertFalse(latest.values.containsValue(3.0), "a value from the stopped forecaster is left");

    s.close();
    assertEquals(
        0,
        Poll.until(
            () -> site.byName.values().stream().mapToInt(ContractForecaster::watchers).sum(),
            n -> n == 0,
            WAIT));
    assertEquals(Status.Code.CANCELLED, Status.fromThrowable(latest.error.get()).getCode());
  }

  @Test
  void watch_reroutesWhenAShardMovesToAJoiningForecaster() throws Exception {
    Latest latest = new Latest();
    Subscription s = client.watchForecasts(WATCHED, Criterion.CRITERION_MSE, latest);
    awaitCurrent(latest);
    Set<String> before = new HashSet<>();
    site.byName.values().forEach(f -> before.add(f.name));

    ContractForecaster f4 = start("f4");
    site.serve(Set.of("f1", "f2", "f3", "f4"));
    now.addAndGet(Duration.ofSeconds(1).toNanos()); // the cached list is a second old
    List<Integer> moved = new ArrayList<>();
    cpuSeriesOf(f4).forEach(x -> moved.add(Shards.of(x)));
    for (String name : before) { // each previous owner ends its streams: shards left it
      if (!name.equals("f4")) {
        site.byName.get(name).shardMoved(moved.get(0));
      }
    }
    awaitCurrent(latest);
    assertTrue(latest.values.containsValue(4.0));
    assertTrue(latest.error.get() == null, "the watch ended: " + latest.error.get());
    s.close();
  }

  @Test
  void watch_replansWhenTheForecasterListChanges_withoutBeingTold() throws Exception {
    try (NetWeatherClient quick =
        NetWeatherClient.forChannel(grpc.channel(nsName))
            .channels(InProcessChannels::forAddress)
            .forecasterRefresh(Duration.ofMillis(200))
            .scheduler(scheduler)
            .build()) {
      Latest latest = new Latest();
      Subscription s = quick.watchForecasts(WATCHED, Criterion.CRITERION_MSE, latest);
      awaitCurrent(latest);

      start("f4"); // registers; no stream is ended
      site.serve(Set.of("f1", "f2", "f3", "f4"));
      awaitCurrent(latest);
      assertTrue(latest.values.containsValue(4.0));
      assertEquals(1, site.byName.get("f4").watchers());
      s.close();
    }
  }

  @Test
  void watch_withAMalformedPattern_endsWithInvalidArgument() throws Exception {
    Latest latest = new Latest();
    ContractForecaster f1 = site.byName.get("f1");
    client.forecasters().current();
    // The double parses as the real forecaster does: a bad character is INVALID_ARGUMENT.
    Subscription s =
        client.watchForecasts(List.of("cpu.availability:$*"), Criterion.CRITERION_MSE, latest);
    Poll.until(() -> latest.error.get() == null ? 0 : 1, n -> n == 1, WAIT);
    assertEquals(Status.Code.INVALID_ARGUMENT, Status.fromThrowable(latest.error.get()).getCode());
    assertEquals(0, f1.watchers());
    s.close();
  }
}
