package org.netweather.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netweather.runtime.tls.DaemonTransport;
import org.netweather.testing.MetricValues;

/**
 * Bytes that are not a request message, sent to a daemon over a real socket, are answered with
 * INVALID_ARGUMENT naming the rpc, on unary and streaming rpcs alike, and the daemon goes on
 * serving.
 */
class RequestDecodingTest {
  /** A field number of 0 with wire type 7: no protobuf parser accepts it. */
  private static final byte[] GARBAGE = {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07};

  private DaemonTransport transport;
  private Daemon daemon;
  private ManagedChannel channel;

  @AfterEach
  void tearDown() throws IOException {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (daemon != null) {
      daemon.close();
    }
    if (transport != null) {
      transport.close();
    }
  }

  /** Sends raw bytes as the request. */
  private static final class Bytes implements MethodDescriptor.Marshaller<byte[]> {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static MethodDescriptor<byte[], byte[]> raw(
      String method, MethodDescriptor.MethodType t) {
    return MethodDescriptor.<byte[], byte[]>newBuilder(new Bytes(), new Bytes())
        .setFullMethodName(method)
        .setType(t)
        .build();
  }

  private void start() throws Exception {
    transport = DaemonTransport.of(null);
    daemon =
        Daemon.start(
            "decoding-test",
            transport.server("127.0.0.1", 0),
            d -> {
              d.serve(List.of());
              return d;
            });
    channel = Channels.plaintext("127.0.0.1:" + daemon.port());
  }

  private CallOptions deadline() {
    return CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS);
  }

  @Test
  void unaryRpc_undecodableBytes_invalidArgumentNamingTheRpc() throws Exception {
    start();
    double before =
        MetricValues.of(
            "netweather_rpc_server_calls",
            "daemon",
            "decoding-test",
            "method",
            "grpc.health.v1.Health/Check",
            "code",
            "INVALID_ARGUMENT");
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                ClientCalls.blockingUnaryCall(
                    channel,
                    raw("grpc.health.v1.Health/Check", MethodDescriptor.MethodType.UNARY),
                    deadline(),
                    GARBAGE));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.toString());
    assertTrue(
        e.getStatus().getDescription().contains("not a valid grpc.health.v1.Health/Check request"),
        e.getStatus().getDescription());
    assertEquals(
        before + 1,
        MetricValues.of(
            "netweather_rpc_server_calls",
            "daemon",
            "decoding-test",
            "method",
            "grpc.health.v1.Health/Check",
            "code",
            "INVALID_ARGUMENT"));
    // The same daemon and connection go on serving well-formed requests.
    assertEquals(
        ServingStatus.SERVING,
        HealthGrpc.newBlockingStub(channel)
            .withDeadlineAfter(20, TimeUnit.SECONDS)
            .check(HealthCheckRequest.getDefaultInstance())
            .getStatus());
  }

  @Test
  void streamingRpc_undecodableBytes_invalidArgument() throws Exception {
    start();
    // Reflection is a bidirectional stream; Health.Watch a server stream.
    Iterator<byte[]> watch =
        ClientCalls.blockingServerStreamingCall(
            channel,
            raw("grpc.health.v1.Health/Watch", MethodDescriptor.MethodType.SERVER_STREAMING),
            deadline(),
            GARBAGE);
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, watch::hasNext);
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.toString());

    io.grpc.ClientCall<byte[], byte[]> call =
        channel.newCall(
            raw(
                "grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                MethodDescriptor.MethodType.BIDI_STREAMING),
            deadline());
    java.util.concurrent.CompletableFuture<Status> closed =
        new java.util.concurrent.CompletableFuture<>();
    call.start(
        new io.grpc.ClientCall.Listener<byte[]>() {
          @Override
          public void onClose(Status status, io.grpc.Metadata trailers) {
            closed.complete(status);
          }
        },
        new io.grpc.Metadata());
    call.request(1);
    call.sendMessage(GARBAGE);
    assertEquals(Status.Code.INVALID_ARGUMENT, closed.get(20, TimeUnit.SECONDS).getCode());
  }
}
