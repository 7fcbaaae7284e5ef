package org.netweather.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.benmanes.caffeine.cache.Ticker;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.GetSnapshotRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.ProxyGrpc;
import org.netweather.api.v1.WatchSnapshotRequest;
import org.netweather.testing.GrpcCleanupExtension;

/** The Proxy service over gRPC: replies written from the cache's prebuilt wire form. */
class ProxyServiceTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1);
  private final ClusterCache cache =
      new ClusterCache(
          "c",
          new ClusterCache.Settings(
              3.0,
              10_000,
              300_000,
              Duration.ofSeconds(30),
              Duration.ofHours(1),
              60_000), // rebuilt only on change: replies compare equal
          s -> null,
          Runnable::run,
          Ticker.systemTicker(),
          System::currentTimeMillis);

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  private static Forecast forecast(String series, double value) {
    return Forecast.newBuilder()
        .setSeries(series)
        .setValue(value)
        .setMse(0.5)
        .setMae(0.25)
        .setMethod("exp-smooth-0.10")
        .setCount(3)
        .setLast(
            Measurement.newBuilder().setTimestampMs(System.currentTimeMillis()).setValue(value))
        .build();
  }

  private ProxyGrpc.ProxyBlockingStub stub() throws Exception {
    ManagedChannel channel = grpc.inProcess(new ProxyService(cache, scheduler));
    return ProxyGrpc.newBlockingStub(channel);
  }

  @Test
  void getSnapshot_parsesToTheCachedSnapshot() throws Exception {
    cache.setHosts(List.of("a", "b"));
    cache.put(forecast("cpu.availability:a", 0.75));
    cache.put(forecast("tcp.bandwidth:a->b", 940));
    cache.put(forecast("tcp.latency:a->b", 0.2));
    ClusterSnapshot got = stub().getSnapshot(GetSnapshotRequest.getDefaultInstance());
    assertEquals(cache.snapshot(), got);
    assertEquals(0.75, got.getHosts(0).getCpuAvailability().getValue());
    assertEquals("exp-smooth-0.10", got.getPairs(0).getBandwidth().getMethod());
    assertEquals(List.of("b->a"), got.getMissingPairsList());
    assertEquals(cache.encoded().size(), got.getSerializedSize());
  }

  @Test
  void getSnapshot_byName_andErrorsNameTheProblem() throws Exception {
    ProxyGrpc.ProxyBlockingStub stub = stub();
    cache.setHosts(List.of("a"));
    assertEquals(
        "c",
        stub.getSnapshot(GetSnapshotRequest.newBuilder().setCluster("c").build()).getCluster());
    StatusRuntimeException other =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.getSnapshot(GetSnapshotRequest.newBuilder().setCluster("d").build()));
    assertEquals(Status.Code.NOT_FOUND, other.getStatus().getCode());
    assertTrue(other.getStatus().getDescription().contains("'c', not 'd'"));
    StatusRuntimeException bad =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.getSnapshot(GetSnapshotRequest.newBuilder().setCluster("a b").build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, bad.getStatus().getCode());
    assertTrue(bad.getStatus().getDescription().contains("cluster"));
  }

  @Test
  void watchSnapshot_sendsEachNewVersion() throws Exception {
    cache.setHosts(List.of("a"));
    cache.put(forecast("cpu.availability:a", 0.5));
    Iterator<ClusterSnapshot> it =
        stub().watchSnapshot(WatchSnapshotRequest.newBuilder().setMinIntervalMs(100).build());
    assertEquals(0.5, it.next().getHosts(0).getCpuAvailability().getValue());
    cache.put(forecast("cpu.availability:a", 0.25));
    assertEquals(0.25, it.next().getHosts(0).getCpuAvailability().getValue());
  }
}
