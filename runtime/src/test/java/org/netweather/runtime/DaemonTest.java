package org.netweather.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.netweather.api.v1.Registration;

class DaemonTest {
  @Test
  void start_servesHealthAndReflection_closeStopsServerThenOwnedInReverse() throws Exception {
    String name = InProcessServerBuilder.generateName();
    List<String> closed = new ArrayList<>();
    Daemon daemon =
        Daemon.start(
            "test",
            InProcessServerBuilder.forName(name),
            d -> {
              d.own(() -> closed.add("first"));
              d.serve(List.of());
              d.own(() -> closed.add("second"));
              return d;
            });
    ManagedChannel ch = InProcessChannelBuilder.forName(name).build();
    try {
      assertEquals(
          ServingStatus.SERVING,
          HealthGrpc.newBlockingStub(ch)
              .check(HealthCheckRequest.getDefaultInstance())
              .getStatus());
      assertTrue(listServices(ch).contains("grpc.health.v1.Health"));
      assertEquals(0, daemon.port()); // in process
      daemon.close();
      assertEquals(List.of("second", "first"), closed);
      assertThrows(
          StatusRuntimeException.class,
          () -> HealthGrpc.newBlockingStub(ch).check(HealthCheckRequest.getDefaultInstance()));
      daemon.close(); // a second close does nothing
      assertEquals(2, closed.size());
    } finally {
      ch.shutdownNow();
    }
  }

  @Test
  void start_setupFails_closesWhatItOpenedAndRethrows() {
    String name = InProcessServerBuilder.generateName();
    List<String> closed = new ArrayList<>();
    ScheduledExecutorService[] pool = new ScheduledExecutorService[1];
    ManagedChannel[] peer = new ManagedChannel[1];
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                Daemon.start(
                    "test",
                    InProcessServerBuilder.forName(name),
                    a -> InProcessChannelBuilder.forName(a).build(),
                    d -> {
                      pool[0] = d.scheduler("test-sched", 1);
                      peer[0] = d.channel("peer");
                      d.own(() -> closed.add("store"));
                      d.serve(List.of());
                      throw new IOException("registration refused");
                    }));

    assertEquals("registration refused", e.getMessage());
    assertEquals(List.of("store"), closed);
    assertTrue(pool[0].isShutdown());
    assertTrue(peer[0].isShutdown());
    // The name is free again: the server was stopped too.
    assertDoesNotThrow(
        () ->
            Daemon.start(
                    "again",
                    InProcessServerBuilder.forName(name),
                    d -> {
                      d.serve(List.of());
                      return d;
                    })
                .close());
  }

  @Test
  void registration_carriesKindHostAndAdvertisedPort() throws Exception {
    try (Daemon daemon =
        Daemon.start(
            "test",
            InProcessServerBuilder.forName(InProcessServerBuilder.generateName()),
            d -> {
              d.serve(List.of());
              return d;
            })) {
      Registration r = daemon.registration("sensor", "alpha", "10.0.0.1").build();
      assertEquals("sensor@alpha", r.getName());
      assertEquals("sensor", r.getKind());
      assertEquals("10.0.0.1:0", r.getAddress());
      assertEquals("alpha", r.getAttributesOrThrow("host"));
    }
    assertEquals("given", Daemon.host("given"));
    assertFalse(Daemon.host("").isEmpty());
  }

  private static List<String> listServices(ManagedChannel ch) throws InterruptedException {
    List<String> names = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(1);
    AtomicBoolean failed = new AtomicBoolean();
    StreamObserver<ServerReflectionRequest> req =
        ServerReflectionGrpc.newStub(ch)
            .serverReflectionInfo(
                new StreamObserver<ServerReflectionResponse>() {
                  @Override
                  public void onNext(ServerReflectionResponse r) {
                    r.getListServicesResponse()
                        .getServiceList()
                        .forEach(s -> names.add(s.getName()));
                  }

                  @Override
                  public void onError(Throwable t) {
                    failed.set(true);
                    done.countDown();
                  }

                  @Override
                  public void onCompleted() {
                    done.countDown();
                  }
                });
    req.onNext(ServerReflectionRequest.newBuilder().setListServices("*").build());
    req.onCompleted();
    assertTrue(done.await(5, TimeUnit.SECONDS));
    assertTrue(!failed.get());
    return names;
  }
}
