package org.netweather.sensor.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.Ticker;

class BlockingEchoTest {
  /** A peer that checks the hello, echoes {@code answers} bytes, then closes. */
  private static CompletableFuture<byte[]> peer(ServerSocket server, int answers) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (Socket s = server.accept()) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] hello = in.readNBytes(ProbeHello.LENGTH);
            for (int i = 0; i < answers; i++) {
              out.write(in.read());
              out.flush();
            }
            return hello;
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  @Test
  void ping_echoPeer_sendsHelloAndTimesEachRoundTrip() throws Exception {
    try (ServerSocket server = new ServerSocket(0)) {
      CompletableFuture<byte[]> hello = peer(server, 3);
      try (BlockingEcho echo =
          BlockingEcho.open(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()),
              Duration.ofSeconds(5),
              null,
              Ticker.system())) {
        assertTrue(echo.takeFresh());
        long[] rtts = echo.ping(3);
        assertEquals(3, rtts.length);
        for (long r : rtts) {
          assertTrue(r > 0, "rtt " + r);
        }
        assertTrue(!echo.takeFresh());
      }
      byte[] expected = new byte[ProbeHello.LENGTH];
      io.netty.buffer.ByteBuf b =
          ProbeHello.echo().encode(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT);
      b.readBytes(expected);
      b.release();
      assertArrayEquals(expected, hello.get(5, TimeUnit.SECONDS));
    }
  }

  @Test
  void ping_peerClosesMidProbe_failsWithEof() throws Exception {
    try (ServerSocket server = new ServerSocket(0)) {
      CompletableFuture<byte[]> unused = peer(server, 1);
      try (BlockingEcho echo =
          BlockingEcho.open(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()),
              Duration.ofSeconds(5),
              null,
              Ticker.system())) {
        assertThrows(java.io.IOException.class, () -> echo.ping(3));
      }
    }
  }
}
