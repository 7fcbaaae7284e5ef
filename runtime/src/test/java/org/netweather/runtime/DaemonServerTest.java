package org.netweather.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class DaemonServerTest {
  @Test
  void start_servesHealthAndReflection_closeRunsOwnedResourcesInReverse() throws Exception {
    String name = InProcessServerBuilder.generateName();
    List<String> closed = new ArrayList<>();
    DaemonServer server = new DaemonServer("test", InProcessServerBuilder.forName(name),
        List.of()).closeAfter(() -> closed.add("first")).closeAfter(() -> closed.add("second"));
    server.start();
    ManagedChannel ch = InProcessChannelBuilder.forName(name).build();
    try {
      assertEquals(ServingStatus.SERVING, HealthGrpc.newBlockingStub(ch)
          .check(HealthCheckRequest.getDefaultInstance()).getStatus());
      assertTrue(listServices(ch).contains("grpc.health.v1.Health"));
      server.close();
      assertEquals(List.of("second", "first"), closed);
      assertThrows(StatusRuntimeException.class, () -> HealthGrpc.newBlockingStub(ch)
          .check(HealthCheckRequest.getDefaultInstance()));
    } finally {
      ch.shutdownNow();
    }
  }

  private static List<String> listServices(ManagedChannel ch) throws InterruptedException {
    List<String> names = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(1);
    AtomicBoolean failed = new AtomicBoolean();
    StreamObserver<ServerReflectionRequest> req = ServerReflectionGrpc.newStub(ch)
        .serverReflectionInfo(new StreamObserver<ServerReflectionResponse>() {
          @Override
          public void onNext(ServerReflectionResponse r) {
            r.getListServicesResponse().getServiceList().forEach(s -> names.add(s.getName()));
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
