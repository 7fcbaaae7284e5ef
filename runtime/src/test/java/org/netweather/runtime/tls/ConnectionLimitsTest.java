package org.netweather.runtime.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Attributes;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerTransportFilter;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netweather.testing.MetricValues;
import org.netweather.testing.Poll;

/**
 * A daemon's server over real loopback sockets: a caller holding more idle connections than the
 * per-address limit has the excess closed at once while a caller from another address is served, a
 * connection that never sends the HTTP/2 preface is closed after the handshake timeout, and one
 * that resets streams past the limit is closed.
 */
class ConnectionLimitsTest {
  private static final InetAddress GREEDY = loopback(1);
  private static final InetAddress OTHER = loopback(2);

  private final List<Socket> sockets = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private Server server;
  private DaemonTransport transport;

  @AfterEach
  void tearDown() throws IOException {
    for (Socket s : sockets) {
      s.close();
    }
    for (ManagedChannel c : channels) {
      c.shutdownNow();
    }
    if (server != null) {
      server.shutdownNow();
    }
    if (transport != null) {
      transport.close();
    }
  }

  private static InetAddress loopback(int last) {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private final AtomicInteger terminated = new AtomicInteger();

  private int start(ConnectionLimits limits) throws Exception {
    HealthStatusManager health = new HealthStatusManager();
    transport = DaemonTransport.of(null);
    server =
        transport
            .server("127.0.0.1", 0, limits)
            .addService(health.getHealthService())
            .addTransportFilter(
                new ServerTransportFilter() {
                  @Override
                  public void transportTerminated(Attributes transportAttrs) {
                    terminated.incrementAndGet();
                  }
                })
            .build()
            .start();
    return server.getPort();
  }

  /** An idle TCP connection from {@code from}: it never says a word. */
  private Socket idle(InetAddress from, int port) throws IOException {
    Socket s = new Socket();
    sockets.add(s);
    s.bind(new InetSocketAddress(from, 0));
    s.connect(new InetSocketAddress("127.0.0.1", port));
    return s;
  }

  /**
   * True if the server closed {@code s} within {@code wait}; false if it is still open. What the
   * server sends meanwhile (its HTTP/2 settings) is read and dropped.
   */
  private static boolean closedByServer(Socket s, Duration wait) throws IOException {
    long deadline = System.nanoTime() + wait.toNanos();
    InputStream in = s.getInputStream(); // not closed here: that would close the socket
    byte[] buf = new byte[256];
    while (true) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        return false;
      }
      s.setSoTimeout((int) left);
      try {
        if (in.read(buf) == -1) {
          return true;
        }
      } catch (SocketTimeoutException e) {
        return false;
      } catch (SocketException e) {
        return true; // reset
      }
    }
  }

  private ServingStatus check(InetAddress from, int port) {
    return check(channel(from, port));
  }

  private static ServingStatus check(ManagedChannel ch) {
    return HealthGrpc.newBlockingStub(ch)
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .check(HealthCheckRequest.getDefaultInstance())
        .getStatus();
  }

  private ManagedChannel channel(InetAddress from, int port) {
    ManagedChannel ch =
        NettyChannelBuilder.forAddress("127.0.0.1", port)
            .usePlaintext()
            .localSocketPicker(
                new NettyChannelBuilder.LocalSocketPicker() {
                  @Override
                  public InetSocketAddress createSocketAddress(
                      java.net.SocketAddress remote, io.grpc.Attributes attrs) {
                    return new InetSocketAddress(from, 0);
                  }
                })
            .build();
    channels.add(ch);
    return ch;
  }

  /** Starts {@code n} health watches one after another and cancels each once it has begun. */
  private static void watchAndCancel(ManagedChannel ch, int n) throws InterruptedException {
    HealthGrpc.HealthStub stub = HealthGrpc.newStub(ch);
    for (int i = 0; i < n; i++) {
      CountDownLatch begun = new CountDownLatch(1);
      Context.CancellableContext ctx = Context.current().withCancellation();
      ctx.run(
          () ->
              stub.watch(
                  HealthCheckRequest.getDefaultInstance(),
                  new StreamObserver<HealthCheckResponse>() {
                    @Override
                    public void onNext(HealthCheckResponse r) {
                      begun.countDown();
                    }

                    @Override
                    public void onError(Throwable t) {
                      begun.countDown();
                    }

                    @Override
                    public void onCompleted() {}
                  }));
      assertTrue(begun.await(10, TimeUnit.SECONDS));
      ctx.cancel(null); // the client resets the stream
    }
  }

  private static double open(int port) {
    return MetricValues.of("netweather_connections_open", "port", Integer.toString(port));
  }

  @Test
  void server_callerOverPerAddressLimit_excessClosedAndOtherCallerServed() throws Exception {
    int port =
        start(
            ConnectionLimits.defaults()
                .withConnections(1000, 20)
                .withHandshakeTimeout(Duration.ofMinutes(5)));
    List<Socket> held = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      held.add(idle(GREEDY, port));
    }
    assertEquals(20.0, MetricValues.await(20.0, () -> open(port)));
    double refusedBefore =
        MetricValues.of(
            "netweather_connections_refused",
            "port",
            Integer.toString(port),
            "reason",
            "per_address");

    List<Socket> excess = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      excess.add(idle(GREEDY, port));
    }
    for (Socket s : excess) {
      assertTrue(closedByServer(s, Duration.ofSeconds(20)), "a connection over the limit");
    }
    // Counted just after the close the caller saw.
    assertEquals(
        refusedBefore + 10,
        MetricValues.await(
            refusedBefore + 10,
            () ->
                MetricValues.of(
                    "netweather_connections_refused",
                    "port",
                    Integer.toString(port),
                    "reason",
                    "per_address")));
    // The greedy address cannot open one more, even a real gRPC connection...
    ManagedChannel refused = channel(GREEDY, port);
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> check(refused));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    // Gone before room is made below: reconnecting in the background, it would take the room.
    refused.shutdownNow();
    assertTrue(refused.awaitTermination(10, TimeUnit.SECONDS));
    // ...while another caller is served, and the greedy caller's first 20 are still open.
    assertEquals(ServingStatus.SERVING, check(OTHER, port));
    for (Socket s : held) {
      assertFalse(closedByServer(s, Duration.ofMillis(50)), "a connection within the limit");
    }

    // Letting go of one makes room for the greedy caller again.
    held.get(0).close();
    assertEquals(20.0, MetricValues.await(20.0, () -> open(port))); // 19 idle + OTHER's channel
    assertEquals(ServingStatus.SERVING, check(GREEDY, port));
  }

  @Test
  void server_connectionWithoutPreface_closedAfterHandshakeTimeout() throws Exception {
    int port =
        start(
            ConnectionLimits.defaults()
                .withConnections(1000, 20)
                .withHandshakeTimeout(Duration.ofMillis(500)));
    Socket silent = idle(GREEDY, port);
    assertTrue(closedByServer(silent, Duration.ofSeconds(20)), "an idle connection");
    assertEquals(0.0, MetricValues.await(0.0, () -> open(port)));
    // A real client completes its handshake within the timeout and stays connected.
    assertEquals(ServingStatus.SERVING, check(OTHER, port));
    assertEquals(1.0, MetricValues.await(1.0, () -> open(port)));
  }

  @Test
  void server_connectionResettingStreamsOverTheLimit_closed() throws Exception {
    int port =
        start(
            ConnectionLimits.defaults()
                .withHandshakeTimeout(Duration.ofMinutes(5))
                .withResets(50, Duration.ofSeconds(60)));
    ManagedChannel ch = channel(OTHER, port);
    assertEquals(ServingStatus.SERVING, check(ch));
    watchAndCancel(ch, 40);
    // Within the limit: the connection that carried the 40 resets still serves.
    assertEquals(ServingStatus.SERVING, check(ch));
    assertEquals(0, terminated.get());
    watchAndCancel(ch, 20);
    assertEquals(1, Poll.until(terminated::get, t -> t == 1, Duration.ofSeconds(20)));
  }

  @Test
  void defaults_keepDescriptorsForTheStore() {
    ConnectionLimits small = ConnectionLimits.forDescriptors(1024);
    assertEquals(768, small.maxConnections());
    assertEquals(192, small.maxConnectionsPerAddress());
    ConnectionLimits usual = ConnectionLimits.forDescriptors(20_000);
    assertEquals(15_000, usual.maxConnections());
    assertEquals(1024, usual.maxConnectionsPerAddress());
    assertEquals(ConnectionLimits.HANDSHAKE_TIMEOUT, usual.handshakeTimeout());
  }

  @Test
  void settings_zeroMeansDerived_givenValuesWin() {
    ConnectionLimits derived = ConnectionSettings.limits(0, 0, 10, 20_000);
    assertEquals(15_000, derived.maxConnections());
    assertEquals(1024, derived.maxConnectionsPerAddress());
    ConnectionLimits given = ConnectionSettings.limits(400, 0, 3, 20_000);
    assertEquals(400, given.maxConnections());
    assertEquals(100, given.maxConnectionsPerAddress()); // a quarter of the given cap
    assertEquals(Duration.ofSeconds(3), given.handshakeTimeout());
    assertEquals(50, ConnectionSettings.limits(400, 50, 3, 20_000).maxConnectionsPerAddress());
  }
}
