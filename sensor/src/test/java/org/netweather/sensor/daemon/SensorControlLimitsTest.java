package org.netweather.sensor.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Activity;
import org.netweather.api.v1.GetStatusRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.ProbeRequest;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;
import org.netweather.api.v1.SensorControlGrpc;
import org.netweather.api.v1.StartActivityRequest;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.InProcessChannels;

/** A sensor cannot be aimed at arbitrary addresses, nor made to flood a path. */
class SensorControlLimitsTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  @Test
  void limiter_grantsOneAtATime_andPerMinute_refillingWithTime() {
    AtomicLong now = new AtomicLong();
    AdHocProbeLimiter l = new AdHocProbeLimiter(2, now::get);
    assertNull(l.tryAcquire());
    assertTrue(l.tryAcquire().contains("one at a time"));
    l.release();
    assertNull(l.tryAcquire());
    l.release();
    assertTrue(l.tryAcquire().contains("adHocProbesPerMinute (2)"));
    now.addAndGet(30_000_000_000L); // half a minute: one probe's worth
    assertNull(l.tryAcquire());
    l.release();
    assertNotNull(l.tryAcquire());
    assertTrue(new AdHocProbeLimiter(0, now::get).tryAcquire().contains("off"));
  }

  @Test
  void probe_refusesAddresses_andRateLimitsRealPeers_andActivitiesMayNotFloodAPath()
      throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    String nameserver = GrpcCleanupExtension.newName();
    int probePort = deadPort;
    grpc.register(
        InProcessServerBuilder.forName(nameserver)
            .addService(
                new NameserverGrpc.NameserverImplBase() {
                  @Override
                  public void search(SearchRequest req, StreamObserver<SearchResponse> out) {
                    out.onNext(
                        SearchResponse.newBuilder()
                            .addRegistrations(
                                Registration.newBuilder()
                                    .setName("sensor@beta")
                                    .setKind("sensor")
                                    .setAddress("beta:1")
                                    .putAttributes("host", "beta")
                                    .putAttributes("probe", "127.0.0.1:" + probePort))
                            .build());
                    out.onCompleted();
                  }
                })
            .build()
            .start());
    SensorProperties p =
        SensorProperties.defaults()
            .with(SensorProperties.HOST, "alpha")
            .with(SensorProperties.NAMESERVER, nameserver + ":0")
            .with(SensorProperties.DATA_DIR, dir.toString())
            .with(SensorProperties.PROBE_PORT, 0)
            .with(SensorProperties.CPU_PERIOD_SECONDS, 3600)
            .with(SensorProperties.MEMORY_PERIOD_SECONDS, 3600)
            .with(SensorProperties.AD_HOC_PROBES_PER_MINUTE, 1);
    String name = GrpcCleanupExtension.newName();
    try (SensorServer s =
        SensorServer.start(
            p, InProcessServerBuilder.forName(name), InProcessChannels::forAddress)) {
      SensorControlGrpc.SensorControlBlockingStub control =
          SensorControlGrpc.newBlockingStub(grpc.channel(name));

      StatusRuntimeException scan =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  control.probe(
                      ProbeRequest.newBuilder()
                          .setSkill("tcp.connect")
                          .setPeer("127.0.0.1:" + deadPort)
                          .build()));
      assertEquals(Status.Code.INVALID_ARGUMENT, scan.getStatus().getCode());
      assertTrue(scan.getStatus().getDescription().contains("peer"), scan.getMessage());

      // A registered peer is probed (nobody listens there: UNAVAILABLE), once a minute here.
      StatusRuntimeException first =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  control.probe(
                      ProbeRequest.newBuilder().setSkill("tcp.connect").setPeer("beta").build()));
      assertEquals(Status.Code.UNAVAILABLE, first.getStatus().getCode(), first.getMessage());
      StatusRuntimeException second =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  control.probe(
                      ProbeRequest.newBuilder().setSkill("tcp.connect").setPeer("beta").build()));
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, second.getStatus().getCode());
      assertTrue(second.getStatus().getDescription().contains("adHocProbesPerMinute"));

      StatusRuntimeException flood =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  control.startActivity(
                      StartActivityRequest.newBuilder()
                          .setActivity(
                              Activity.newBuilder()
                                  .setName("bw")
                                  .setSkill("tcp.bandwidth")
                                  .setPeriodSeconds(1)
                                  .addPeers("beta"))
                          .build()));
      assertEquals(Status.Code.INVALID_ARGUMENT, flood.getStatus().getCode());
      assertTrue(
          flood.getStatus().getDescription().contains("minNetworkActivitySeconds (60)"),
          flood.getMessage());
      assertTrue(
          control.getStatus(GetStatusRequest.getDefaultInstance()).getActivitiesList().stream()
              .noneMatch(a -> a.getName().equals("bw")),
          "nothing was started");
    }
  }
}
