package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.netweather.sensor.Ticker;

/**
 * One open ECHO connection driven by a plain blocking socket, for {@code tcp.latency}.
 *
 * <p>Why not the event loop: on virtual machines a selector wake-up costs about 0.1 ms on each
 * side, which a one-byte round trip cannot hide (seen here: 0.2-0.3 ms through Netty on both ends
 * against 0.15 ms with a blocking client, on a path ping puts at 0.05-0.08 ms). A thread blocked in
 * {@code read} is woken straight by the kernel, so the probe times the path rather than the
 * selector.
 *
 * <p>Not thread-safe: one caller at a time, which {@link ProbeClient} guarantees by running latency
 * probes on its own single thread.
 */
final class BlockingEcho implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final Ticker ticker;
  private boolean fresh = true;

  private BlockingEcho(Socket socket, Ticker ticker) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
    this.ticker = ticker;
  }

  /** Connects and sends the ECHO hello. */
  static BlockingEcho open(InetSocketAddress peer, Duration timeout, ProbeKey key, Ticker ticker)
      throws IOException {
    Socket s = new Socket();
    try {
      InetSocketAddress resolved =
          peer.isUnresolved() ? new InetSocketAddress(peer.getHostString(), peer.getPort()) : peer;
      s.connect(resolved, (int) timeout.toMillis());
      s.setTcpNoDelay(true);
      s.setSoTimeout((int) timeout.toMillis());
      byte[] bytes;
      if (key != null) {
        bytes = key.sealBytes(ProbeHello.echo());
      } else {
        ByteBuf hello = ProbeHello.echo().encode(UnpooledByteBufAllocator.DEFAULT);
        bytes = new byte[hello.readableBytes()];
        hello.readBytes(bytes);
        hello.release();
      }
      BlockingEcho e = new BlockingEcho(s, ticker);
      e.out.write(bytes);
      e.out.flush();
      return e;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** Whether the hello was sent on this connection and not yet counted by a caller. */
  boolean takeFresh() {
    boolean f = fresh;
    fresh = false;
    return f;
  }

  /** Times {@code count} sequential one-byte round trips, in nanoseconds. */
  long[] ping(int count) throws IOException {
    long[] rtts = new long[count];
    for (int i = 0; i < count; i++) {
      long start = ticker.nanoTime();
      out.write(1);
      out.flush();
      if (in.read() < 0) {
        throw new EOFException("peer closed the echo connection");
      }
      rtts[i] = ticker.nanoTime() - start;
    }
    return rtts;
  }

  boolean isOpen() {
    return !socket.isClosed();
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // nothing left to release
    }
  }
}
