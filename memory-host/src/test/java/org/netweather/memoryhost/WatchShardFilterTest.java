package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;
import org.netweather.model.shard.ShardSet;
import org.netweather.model.shard.Shards;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;

/**
 * The Watch call's shard filter: only the asked shards' series, stored and live, then caught_up.
 */
class WatchShardFilterTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();
  private final ExecutorService watchPool = Executors.newSingleThreadExecutor();
  private MeasurementStore store;
  private ManagedChannel channel;

  // Three hosts in three different shards (checked below), each with a host and a pair series.
  private static final List<String> HOSTS = List.of("alpha", "beta", "gamma");

  @BeforeEach
  void setUp() throws Exception {
    store = MeasurementStore.open(dir, 1000, clock, watchPool);
    channel = grpc.inProcess(new MemoryHostService(store, clock));
  }

  @AfterEach
  void tearDown() throws Exception {
    store.close();
    watchPool.shutdownNow();
  }

  private void append(long t) {
    AppendRequest.Builder req = AppendRequest.newBuilder();
    for (String h : HOSTS) {
      for (String series : List.of("cpu.availability:" + h, "tcp.latency:" + h + "->zeta")) {
        req.addBatches(
            SeriesPoints.newBuilder()
                .setSeries(series)
                .addPoints(Measurement.newBuilder().setTimestampMs(t).setValue(0.5)));
      }
    }
    MemoryHostGrpc.newBlockingStub(channel).append(req.build());
  }

  @Test
  void watch_withShards_deliversOnlyThoseShards_backlogThenCaughtUpThenLive() throws Exception {
    assertEquals(3, new TreeSet<>(HOSTS.stream().map(Shards::ofHost).toList()).size());
    long t0 = clock.millis() - 60_000;
    append(t0);
    ShardSet wanted = ShardSet.none().add(Shards.ofHost("alpha")).add(Shards.ofHost("gamma"));
    LinkedBlockingQueue<WatchResponse> got = new LinkedBlockingQueue<>();
    MemoryHostGrpc.newStub(channel)
        .watch(
            WatchRequest.newBuilder().addPatterns("*").setShards(wanted.text()).build(),
            collect(got));

    List<String> backlog = new ArrayList<>();
    WatchResponse r;
    while (!(r = poll(got)).getCaughtUp()) {
      r.getBatchesList().forEach(b -> backlog.add(b.getSeries()));
    }
    assertEquals(0, r.getBatchesCount(), "the caught_up message carries nothing else");
    assertEquals(
        List.of(
            "cpu.availability:alpha",
            "cpu.availability:gamma",
            "tcp.latency:alpha->zeta",
            "tcp.latency:gamma->zeta"),
        backlog.stream().sorted().toList());

    append(t0 + 1000);
    List<String> live = new ArrayList<>();
    while (live.size() < 4) {
      poll(got).getBatchesList().forEach(b -> live.add(b.getSeries()));
    }
    assertEquals(backlog.stream().sorted().toList(), live.stream().sorted().toList());
    assertTrue(got.isEmpty(), "nothing of beta's shard: " + got);
  }

  @Test
  void watch_withoutShards_sendsEveryShardAndNoCaughtUp() throws Exception {
    long t0 = clock.millis() - 60_000;
    append(t0);
    LinkedBlockingQueue<WatchResponse> got = new LinkedBlockingQueue<>();
    MemoryHostGrpc.newStub(channel)
        .watch(WatchRequest.newBuilder().addPatterns("*").build(), collect(got));
    List<String> seen = new ArrayList<>();
    while (seen.size() < 6) {
      WatchResponse r = poll(got);
      assertNotEquals(true, r.getCaughtUp());
      r.getBatchesList().forEach(b -> seen.add(b.getSeries()));
    }
    assertEquals(6, new TreeSet<>(seen).size());
  }

  @Test
  void watch_malformedShards_isInvalidArgumentNamingTheField() {
    for (String bad : List.of("not base64!", "A".repeat(1000))) {
      StatusRuntimeException e =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  MemoryHostGrpc.newBlockingStub(channel)
                      .watch(WatchRequest.newBuilder().addPatterns("*").setShards(bad).build())
                      .hasNext());
      assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
      assertTrue(e.getStatus().getDescription().startsWith("shards: "), e.toString());
    }
    assertEquals(0, store.watchStreams(), "a refused watch holds nothing");
  }

  @Test
  void shardOf_isTheModelsShard_forHostAndPairSeries() {
    for (String name :
        List.of(
            "cpu.availability:alpha",
            "tcp.bandwidth:alpha->beta",
            "tcp.latency:10.0.0.7->10.0.0.8",
            "user.x:my_host-1.example")) {
      assertEquals(Shards.of(name), WatchHub.shardOf(name), name);
    }
  }

  private static WatchResponse poll(LinkedBlockingQueue<WatchResponse> q)
      throws InterruptedException {
    WatchResponse r = q.poll(10, TimeUnit.SECONDS);
    assertTrue(r != null, "a watch message within 10 s");
    return r;
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
}
