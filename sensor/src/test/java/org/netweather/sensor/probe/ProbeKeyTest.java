package org.netweather.sensor.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.Reading;
import org.netweather.sensor.Ticker;

/**
 * Sealed probe hellos: a server with the site's key serves clients with the key over real loopback
 * sockets, and gives anyone else (no key, another key, a replayed or stale hello) nothing beyond
 * reading their hello.
 */
class ProbeKeyTest {
  private static final byte[] SECRET =
      "site probe secret 0123456789".getBytes(StandardCharsets.UTF_8);
  private final AtomicLong now = new AtomicLong(1_700_000_000_000L);
  private EventLoopGroup loops;
  private ProbeServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    if (loops != null) {
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  private ProbeKey key(String secret) {
    return new ProbeKey(secret.getBytes(StandardCharsets.UTF_8), now::get);
  }

  @Test
  void sealedHello_opensWithTheSameKeyOnce_andNotWithAnotherOrLate() {
    ProbeKey client = new ProbeKey(SECRET, now::get);
    ProbeKey server = new ProbeKey(SECRET, now::get);
    ByteBuf sealed = client.seal(ProbeHello.sink(1000, 5000), UnpooledByteBufAllocator.DEFAULT);
    assertEquals(ProbeKey.SEALED_LENGTH, sealed.readableBytes());
    ByteBuf copy = sealed.copy();
    ByteBuf other = sealed.copy();
    ByteBuf late = sealed.copy();
    assertEquals(ProbeHello.sink(1000, 5000), server.open(sealed));
    IllegalArgumentException replay =
        assertThrows(IllegalArgumentException.class, () -> server.open(copy));
    assertTrue(replay.getMessage().contains("replayed"));
    IllegalArgumentException wrongKey =
        assertThrows(
            IllegalArgumentException.class, () -> key("another site's secret!!").open(other));
    assertTrue(wrongKey.getMessage().contains("not sealed with this site's probe key"));
    now.addAndGet(ProbeKey.SKEW + 1);
    IllegalArgumentException stale =
        assertThrows(
            IllegalArgumentException.class, () -> new ProbeKey(SECRET, now::get).open(late));
    assertTrue(stale.getMessage().contains("clock"));

    // One flipped bit anywhere is refused.
    ByteBuf tampered = client.seal(ProbeHello.echo(), UnpooledByteBufAllocator.DEFAULT);
    tampered.setByte(9, tampered.getByte(9) ^ 1);
    assertThrows(IllegalArgumentException.class, () -> server.open(tampered));
    assertThrows(IllegalArgumentException.class, () -> new ProbeKey(new byte[8], now::get));
  }

  @Test
  void serverWithKey_servesKeyHolders_andGivesOthersNothing() throws Exception {
    loops = ProbeEventLoops.create("probe-key-test", 2);
    ProbeKey site = new ProbeKey(SECRET, System::currentTimeMillis);
    server =
        new ProbeServer(
                loops,
                ProbeServerOptions.defaults(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .withKey(site),
                remote -> remote.getAddress().isLoopbackAddress(),
                Ticker.system())
            .start();
    InetSocketAddress peer = server.address();
    ProbeClientOptions base =
        ProbeClientOptions.defaults()
            .withTrain(Duration.ofMillis(50), Duration.ofMillis(200), 16L << 20);

    try (ProbeClient member =
        new ProbeClient(
            loops,
            base.withKey(new ProbeKey(SECRET, System::currentTimeMillis)),
            Ticker.system())) {
      Reading latency = member.latency(peer).get(20, TimeUnit.SECONDS);
      assertTrue(latency.value() > 0, "latency " + latency);
      Reading bandwidth = member.bandwidth(peer).get(20, TimeUnit.SECONDS);
      assertTrue(bandwidth.value() > 1, "bandwidth " + bandwidth);
      try (PLogPConnection plogp = member.plogp(peer).get(10, TimeUnit.SECONDS)) {
        assertTrue(plogp.sendOverhead(1024).get(10, TimeUnit.SECONDS) > 0);
      }
    }

    for (ProbeKey stranger : new ProbeKey[] {null, key("not this site's secret")}) {
      try (ProbeClient outsider =
          new ProbeClient(
              loops, base.withKey(stranger).withTimeout(Duration.ofSeconds(2)), Ticker.system())) {
        assertThrows(
            ExecutionException.class, () -> outsider.latency(peer).get(20, TimeUnit.SECONDS));
        assertThrows(
            ExecutionException.class, () -> outsider.bandwidth(peer).get(20, TimeUnit.SECONDS));
      }
    }

    // A raw connection asking the source for a megabyte without the key: not one byte comes back.
    try (Socket raw = new Socket(peer.getAddress(), peer.getPort())) {
      raw.setSoTimeout(5_000);
      ByteBuf hello = ProbeHello.source(0, 1 << 20).encode(UnpooledByteBufAllocator.DEFAULT);
      byte[] bytes = new byte[hello.readableBytes()];
      hello.readBytes(bytes);
      hello.release();
      OutputStream out = raw.getOutputStream();
      out.write(bytes);
      out.flush();
      InputStream in = raw.getInputStream();
      assertEquals(-1, in.read(), "the server closes without sending anything");
    }
    // Nor with a sealed hello replayed from a key holder.
    ProbeKey holder = new ProbeKey(SECRET, System::currentTimeMillis);
    byte[] sealed = holder.sealBytes(ProbeHello.source(0, 1 << 20));
    assertTrue(readAfter(peer, sealed) > 0, "the key holder's hello is served");
    assertEquals(0, readAfter(peer, sealed), "its replay is not");
  }

  /** Bytes the server sends back (up to 64 KiB) after {@code hello}. */
  private static int readAfter(InetSocketAddress peer, byte[] hello) throws Exception {
    try (Socket raw = new Socket(peer.getAddress(), peer.getPort())) {
      raw.setSoTimeout(5_000);
      raw.getOutputStream().write(hello);
      raw.getOutputStream().flush();
      InputStream in = raw.getInputStream();
      int total = 0;
      byte[] buf = new byte[8192];
      int n;
      while (total < 65_536 && (n = in.read(buf)) > 0) {
        total += n;
      }
      return total;
    }
  }
}
