package org.netweather.sensor.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.Reading;
import org.netweather.sensor.Ticker;
import org.netweather.sensor.interference.Direction;
import org.netweather.sensor.interference.ProbeTransferDriver;
import org.netweather.sensor.interference.TransferDriver;

/**
 * Server and client over real loopback sockets on port 0. Values are only checked for sanity:
 * loopback speed says nothing about a network, and tests never assert on speed.
 */
class ProbeLoopbackTest {

  private static final InetSocketAddress LOOPBACK_ANY_PORT =
      new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

  private EventLoopGroup loops;
  private ProbeServer server;
  private ProbeClient client;
  private InetSocketAddress peer;

  @BeforeEach
  void start() throws Exception {
    loops = ProbeEventLoops.create("probe-test", 2);
    server =
        new ProbeServer(
                loops,
                ProbeServerOptions.defaults(LOOPBACK_ANY_PORT),
                remote -> remote.getAddress().isLoopbackAddress(),
                Ticker.system())
            .start();
    ProbeClientOptions options =
        new ProbeClientOptions(
            Duration.ofSeconds(5),
            5,
            Duration.ofMillis(5),
            Duration.ofMillis(100),
            Duration.ofMillis(800),
            256L << 20,
            0.03,
            1L << 30,
            null);
    client = new ProbeClient(loops, options, Ticker.system());
    peer = server.address();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Test
  void latency_openConnection_positiveRoundTripAndHelloPaidOnce() throws Exception {
    Reading first = client.latency(peer).get(10, TimeUnit.SECONDS);
    Reading second = client.latency(peer).get(10, TimeUnit.SECONDS);

    assertTrue(first.value() > 0 && first.value() < 1000, "rtt " + first.value());
    assertEquals("ms", first.unit());
    // 5 reported round trips and the warm-ups, a byte each way.
    long pings = 5 + ProbeClient.LATENCY_WARMUPS;
    assertEquals(ProbeHello.LENGTH + 2 * pings, first.bytesSpent());
    assertEquals(2 * pings, second.bytesSpent());
    assertTrue(first.extras().get("minMs") <= first.value());
  }

  @Test
  void connectTime_listeningPeer_positive() throws Exception {
    Reading r = client.connectTime(peer).get(10, TimeUnit.SECONDS);

    assertTrue(r.value() > 0 && r.value() < 1000, "connect " + r.value());
    assertEquals(0, r.bytesSpent());
  }

  /**
   * The first connect of a JVM pays class loading (a fresh process read 2.5-5.9 ms on loopback
   * against 0.24 ms in a running sensor): the first measurement of a peer connects once untimed,
   * later ones connect once each.
   */
  @Test
  void connectTime_firstMeasurementOfAPeer_oneUntimedConnectFirst() throws Exception {
    AtomicInteger accepted = new AtomicInteger();
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                while (true) {
                  try (Socket s = listener.accept()) {
                    accepted.incrementAndGet();
                  } catch (IOException e) {
                    return;
                  }
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      InetSocketAddress counted = (InetSocketAddress) listener.getLocalSocketAddress();

      client.connectTime(counted).get(10, TimeUnit.SECONDS);
      awaitCount(accepted, 2);
      Reading second = client.connectTime(counted).get(10, TimeUnit.SECONDS);
      awaitCount(accepted, 3);
      client.connectTime(counted).get(10, TimeUnit.SECONDS);
      awaitCount(accepted, 4);
      Thread.sleep(100);

      assertEquals(4, accepted.get());
      assertTrue(second.value() > 0, "connect " + second.value());
    }
  }

  private static void awaitCount(AtomicInteger count, int expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (count.get() < expected && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(expected, count.get());
  }

  @Test
  void connectTime_nobodyListening_fails() throws Exception {
    InetSocketAddress closed = server.address();
    server.close();

    assertThrows(
        ExecutionException.class, () -> client.connectTime(closed).get(10, TimeUnit.SECONDS));
  }

  @Test
  void bandwidth_loopback_measuresPositiveRateWithinByteCap() throws Exception {
    Reading r = client.bandwidth(peer).get(20, TimeUnit.SECONDS);

    System.out.printf(
        "loopback tcp.bandwidth: %.0f Mbit/s, converged=%.0f, train %.1f ms, %d bytes spent,"
            + " %.0f received, %.0f marks%n",
        r.value(),
        r.extras().get("converged"),
        r.extras().get("trainMs"),
        r.bytesSpent(),
        r.extras().get("receivedBytes"),
        r.extras().get("marks"));
    assertTrue(r.value() > 0);
    assertTrue(r.bytesSpent() >= r.extras().get("receivedBytes"));
    assertTrue(r.bytesSpent() <= (256L << 20) + 1_000_000);
  }

  @Test
  void latency_peerNotAllowed_connectionRefusedByServer() throws Exception {
    ProbeServer strict =
        new ProbeServer(
                loops,
                ProbeServerOptions.defaults(LOOPBACK_ANY_PORT),
                remote -> false,
                Ticker.system())
            .start();
    try {
      assertThrows(
          ExecutionException.class,
          () -> client.latency(strict.address()).get(10, TimeUnit.SECONDS));
    } finally {
      strict.close();
    }
  }

  @Test
  void transfers_sendAndReceive_moveBytesUntilClosed() throws Exception {
    TransferDriver driver = new ProbeTransferDriver(client);
    for (Direction d : Direction.values()) {
      try (TransferDriver.Transfer t = driver.start(peer, d, 2e6)) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.bytes() == 0 && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertTrue(t.bytes() > 0, d + " moved nothing");
      }
    }
  }
}
