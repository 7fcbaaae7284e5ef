package org.netweather.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.AppendStreamRequest;
import org.netweather.api.v1.AppendStreamResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.testing.GrpcCleanupExtension;

/** NetWeatherClient.appendOnStream against memory-hosts whose streams answer as scripted. */
class AppendStreamsTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  /** Full names of the calls the memory-host saw, in order. */
  private final List<String> calls = new CopyOnWriteArrayList<>();

  private NetWeatherClient client;

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.close();
    }
  }

  /** A memory-host whose stream answers each request with what {@code answer} gives (or not). */
  private static final class ScriptedHost extends MemoryHostGrpc.MemoryHostImplBase {
    volatile Function<AppendStreamRequest, AppendStreamResponse> answer = r -> stored(r);
    final List<ServerCallStreamObserver<AppendStreamResponse>> streams =
        new CopyOnWriteArrayList<>();
    final CountDownLatch cancelled = new CountDownLatch(1);
    final CompletableFuture<Long> held = new CompletableFuture<>();

    static AppendStreamResponse stored(AppendStreamRequest r) {
      int n = 0;
      for (SeriesPoints b : r.getBatchesList()) {
        n += b.getPointsCount();
      }
      return AppendStreamResponse.newBuilder().setSeq(r.getSeq()).setStored(n).build();
    }

    @Override
    public StreamObserver<AppendStreamRequest> appendStream(
        StreamObserver<AppendStreamResponse> out) {
      ServerCallStreamObserver<AppendStreamResponse> call =
          (ServerCallStreamObserver<AppendStreamResponse>) out;
      call.setOnCancelHandler(cancelled::countDown);
      streams.add(call);
      return new StreamObserver<>() {
        @Override
        public void onNext(AppendStreamRequest r) {
          AppendStreamResponse a = answer.apply(r);
          if (a != null) {
            out.onNext(a);
          } else {
            held.complete(r.getSeq());
          }
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          out.onCompleted();
        }
      };
    }
  }

  /** A memory-host that has only the unary Append. */
  private static final class UnaryHost extends MemoryHostGrpc.MemoryHostImplBase {
    @Override
    public void append(AppendRequest req, StreamObserver<AppendResponse> out) {
      out.onNext(AppendResponse.newBuilder().setStored(req.getBatches(0).getPointsCount()).build());
      out.onCompleted();
    }
  }

  private String serve(BindableService host) throws IOException {
    String name = GrpcCleanupExtension.newName();
    ServerInterceptor seen =
        new ServerInterceptor() {
          @Override
          public <Q, R> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            calls.add(call.getMethodDescriptor().getBareMethodName());
            return next.startCall(call, headers);
          }
        };
    grpc.register(
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(ServerInterceptors.intercept(host, seen))
            .build()
            .start());
    ManagedChannel ns = grpc.register(InProcessChannelBuilder.forName(name).build());
    client =
        NetWeatherClient.forChannel(ns)
            .deadline(Duration.ofMillis(500))
            .maxAttempts(1)
            .channels(a -> InProcessChannelBuilder.forName(a).build())
            .build();
    return name;
  }

  private static AppendRequest points(int n) {
    SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries("cpu.availability:alpha");
    for (int i = 0; i < n; i++) {
      b.addPoints(Measurement.newBuilder().setTimestampMs(1_000 + i).setValue(0.5));
    }
    return AppendRequest.newBuilder().addBatches(b).build();
  }

  @Test
  void appendsShareOneStream_andARefusalIsTheStatusAppendWouldEndWith() throws Exception {
    ScriptedHost host = new ScriptedHost();
    String address = serve(host);

    assertEquals(3, client.appendOnStream(address, points(3)).getStored());
    assertEquals(5, client.appendOnStream(address, points(5)).getStored());
    host.answer =
        r ->
            AppendStreamResponse.newBuilder()
                .setSeq(r.getSeq())
                .setCode(Status.Code.RESOURCE_EXHAUSTED.value())
                .setMessage("write queue is full")
                .build();
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> client.appendOnStream(address, points(1)));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    assertEquals("write queue is full", e.getStatus().getDescription());

    assertEquals(List.of("AppendStream"), calls, "one stream for every append");
  }

  @Test
  void aStreamThatBreaks_failsWhatWaitsOnIt_andTheNextAppendOpensAFreshOne() throws Exception {
    ScriptedHost host = new ScriptedHost();
    String address = serve(host);
    host.answer = r -> null;
    CompletableFuture<Throwable> failed =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                client.appendOnStream(address, points(2));
                return null;
              } catch (StatusRuntimeException e) {
                return e;
              }
            });
    host.held.get(5, TimeUnit.SECONDS);
    host.streams.get(0).onError(Status.UNAVAILABLE.withDescription("going away").asException());
    Throwable e = failed.get(5, TimeUnit.SECONDS);
    assertEquals(Status.Code.UNAVAILABLE, Status.fromThrowable(e).getCode(), String.valueOf(e));

    host.answer = ScriptedHost::stored;
    assertEquals(4, client.appendOnStream(address, points(4)).getStored());
    assertEquals(List.of("AppendStream", "AppendStream"), calls);
  }

  @Test
  void noAnswerWithinTheDeadline_cancelsTheStream_soThatARetryGoesOnAFreshOne() throws Exception {
    ScriptedHost host = new ScriptedHost();
    String address = serve(host);
    host.answer = r -> null;
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> client.appendOnStream(address, points(1)));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
    assertTrue(host.cancelled.await(5, TimeUnit.SECONDS), "the stream was cancelled");

    host.answer = ScriptedHost::stored;
    assertEquals(1, client.appendOnStream(address, points(1)).getStored());
    assertEquals(List.of("AppendStream", "AppendStream"), calls);
  }

  @Test
  void aMemoryHostWithoutStreams_getsUnaryAppends() throws Exception {
    String address = serve(new UnaryHost());
    assertEquals(2, client.appendOnStream(address, points(2)).getStored());
    assertEquals(3, client.appendOnStream(address, points(3)).getStored());
    assertEquals(List.of("AppendStream", "Append", "Append"), calls, "the stream is tried once");
  }
}
