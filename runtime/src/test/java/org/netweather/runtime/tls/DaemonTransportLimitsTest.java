package org.netweather.runtime.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.Context;
import io.grpc.ForwardingServerCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netweather.runtime.Channels;
import org.netweather.testing.Poll;

/**
 * A daemon's server over a real socket holds at most {@link
 * DaemonTransport#MAX_CALLS_PER_CONNECTION} calls of one connection open; the client's further
 * calls wait and start as earlier ones end.
 */
class DaemonTransportLimitsTest {
  private Server server;
  private ManagedChannel channel;

  @AfterEach
  void tearDown() {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (server != null) {
      server.shutdownNow();
    }
  }

  /** Counts the calls the server has open. */
  private static final class OpenCalls implements ServerInterceptor {
    final AtomicInteger open = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      most.accumulateAndGet(open.incrementAndGet(), Math::max);
      return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
          next.startCall(call, headers)) {
        @Override
        public void onComplete() {
          open.decrementAndGet();
          super.onComplete();
        }

        @Override
        public void onCancel() {
          open.decrementAndGet();
          super.onCancel();
        }
      };
    }
  }

  private static void await(AtomicInteger value, int expected) throws InterruptedException {
    assertEquals(expected, Poll.until(value::get, v -> v == expected, Duration.ofSeconds(20)));
  }

  @Test
  void oneConnectionHoldsAtMostTheLimit_andWaitingCallsStartAsOthersEnd() throws Exception {
    OpenCalls calls = new OpenCalls();
    HealthStatusManager health = new HealthStatusManager();
    try (DaemonTransport transport = DaemonTransport.of(null)) {
      server =
          transport
              .server("127.0.0.1", 0)
              .addService(ServerInterceptors.intercept(health.getHealthService(), calls))
              .build()
              .start();
      channel = Channels.plaintext("127.0.0.1:" + server.getPort());
      HealthGrpc.HealthStub stub = HealthGrpc.newStub(channel);
      // The connection is up, and the server's settings known, before the calls go out.
      HealthGrpc.newBlockingStub(channel).check(HealthCheckRequest.getDefaultInstance());
      AtomicInteger failed = new AtomicInteger();
      int limit = DaemonTransport.MAX_CALLS_PER_CONNECTION;
      List<Context.CancellableContext> watches = new ArrayList<>();
      // Health watches stay open until cancelled.
      for (int i = 0; i < limit + 50; i++) {
        Context.CancellableContext ctx = Context.current().withCancellation();
        watches.add(ctx);
        ctx.run(
            () ->
                stub.watch(
                    HealthCheckRequest.getDefaultInstance(),
                    new StreamObserver<HealthCheckResponse>() {
                      @Override
                      public void onNext(HealthCheckResponse r) {}

                      @Override
                      public void onError(Throwable t) {
                        if (!io.grpc.Status.fromThrowable(t)
                            .getCode()
                            .equals(io.grpc.Status.Code.CANCELLED)) {
                          System.err.println(t);
                          failed.incrementAndGet();
                        }
                      }

                      @Override
                      public void onCompleted() {}
                    }));
      }
      await(calls.open, limit);
      Thread.sleep(300); // none of the waiting 50 slips in late
      assertEquals(limit, calls.most.get());

      for (int i = 0; i < limit; i++) {
        watches.get(i).cancel(null);
      }
      // The first calls ended; the 50 waiting ones started.
      await(calls.open, 50);
      for (Context.CancellableContext ctx : watches) {
        ctx.cancel(null);
      }
      await(calls.open, 0);
      assertEquals(0, failed.get());
      assertEquals(limit, calls.most.get());
      // The server stops before the transport that owns its event loops closes.
      server.shutdownNow().awaitTermination(20, TimeUnit.SECONDS);
    }
  }
}
