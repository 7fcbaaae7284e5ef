package org.netweather.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Status;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;
import org.netweather.api.v1.WatchCliquesRequest;
import org.netweather.api.v1.WatchCliquesResponse;

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

  /**
   * A stop waits for unary calls in flight, not for streams: a peer's watch never ends by itself,
   * so waiting for it held every stop for the whole grace. With a grace of an hour, close returns
   * once the unary call is answered, and the stream is cancelled.
   */
  @Test
  @Timeout(60)
  void close_letsUnaryCallsInFlightFinish_andCancelsStreamsWithoutWaitingForThem()
      throws Exception {
    String name = InProcessServerBuilder.generateName();
    CountDownLatch inSearch = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    BindableService service =
        new NameserverGrpc.NameserverImplBase() {
          @Override
          public void search(SearchRequest request, StreamObserver<SearchResponse> out) {
            inSearch.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            out.onNext(SearchResponse.newBuilder().setNextPageToken("answered").build());
            out.onCompleted();
          }

          @Override
          public void watchCliques(
              WatchCliquesRequest request, StreamObserver<WatchCliquesResponse> out) {
            // never ends: a watch lasts as long as its watcher
          }
        };
    Daemon daemon =
        Daemon.start(
            "test",
            InProcessServerBuilder.forName(name),
            d -> {
              d.serve(List.of(service));
              return d;
            });
    ManagedChannel ch = InProcessChannelBuilder.forName(name).build();
    try {
      CompletableFuture<Status> watchEnded = new CompletableFuture<>();
      NameserverGrpc.newStub(ch)
          .watchCliques(
              WatchCliquesRequest.getDefaultInstance(),
              new StreamObserver<>() {
                @Override
                public void onNext(WatchCliquesResponse r) {}

                @Override
                public void onError(Throwable t) {
                  watchEnded.complete(Status.fromThrowable(t));
                }

                @Override
                public void onCompleted() {
                  watchEnded.complete(Status.OK);
                }
              });
      var search = NameserverGrpc.newFutureStub(ch).search(SearchRequest.getDefaultInstance());
      assertTrue(inSearch.await(30, TimeUnit.SECONDS));
      Thread closer = new Thread(() -> daemon.close(Duration.ofHours(1)), "closer");
      closer.start();
      assertFalse(search.isDone(), "the unary call is still being answered");
      release.countDown();
      assertEquals("answered", search.get(30, TimeUnit.SECONDS).getNextPageToken());
      closer.join(); // no hour's wait for the watch
      // Cancelled by the stop (the watcher sees the server go), not completed as if it had ended.
      assertNotEquals(Status.Code.OK, watchEnded.get(30, TimeUnit.SECONDS).getCode());
    } finally {
      ch.shutdownNow();
    }
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
