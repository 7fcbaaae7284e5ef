package org.netweather.sensor.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.netweather.sensor.FakeTicker;

/**
 * What a peer can send a sensor's probe server: whatever bytes arrive, in whatever pieces, the
 * hello decoder and the handler it hands over to (echo, sink, source, pLogP) either serve or close
 * the connection, never throw into the pipeline. Hellos encode and decode to themselves, sealed or
 * not. Seeds in {@code ProbeFuzzTestInputs/}; {@code benchmarks/fuzz} fuzzes longer.
 */
class ProbeFuzzTest {
  private static final long NOW = 1_700_000_000_000L;
  // Small caps, so a fuzzed source or sink ends within the input instead of after a gigabyte.
  private static final ProbeServerOptions OPEN =
      new ProbeServerOptions(
          new InetSocketAddress(0),
          0,
          Duration.ofSeconds(10),
          Duration.ofMinutes(10),
          Duration.ofMillis(1),
          1 << 16,
          1 << 16,
          null);

  private static ProbeKey key() {
    return new ProbeKey("fuzzing-probe-key-0123456789".getBytes(StandardCharsets.UTF_8), () -> NOW);
  }

  @FuzzTest
  void hello(byte[] data) {
    serve(OPEN, data);
  }

  @FuzzTest
  void sealedHello(byte[] data) {
    ProbeKey key = key();
    // The fuzzer cannot forge a seal: put a genuine sealed hello ahead of the rest when the first
    // byte asks for it, so what follows reaches the handler behind it.
    if (data.length > 2 && data[0] == 'S') {
      ProbeMode[] modes = ProbeMode.values();
      ProbeMode mode = modes[(data[1] & 0xff) % modes.length];
      ProbeHello hello =
          mode == ProbeMode.ECHO
              ? ProbeHello.echo()
              : mode == ProbeMode.SINK
                  ? ProbeHello.sink(data[2] & 0xff, 1 << 20)
                  : mode == ProbeMode.SOURCE ? ProbeHello.source(1, 1 << 12) : ProbeHello.plogp();
      ByteBuf sealed = key.seal(hello, ByteBufAllocator.DEFAULT);
      byte[] rest = java.util.Arrays.copyOfRange(data, 3, data.length);
      byte[] all = new byte[sealed.readableBytes() + rest.length];
      sealed.readBytes(all, 0, sealed.readableBytes());
      sealed.release();
      System.arraycopy(rest, 0, all, all.length - rest.length, rest.length);
      data = all;
    }
    serve(OPEN.withKey(key), data);
  }

  /** Feeds the input in pieces whose sizes its own bytes choose, then closes the connection. */
  private static void serve(ProbeServerOptions options, byte[] data) {
    EmbeddedChannel ch = new EmbeddedChannel(new ProbeHelloDecoder(options, new FakeTicker()));
    try {
      int at = 0;
      while (at < data.length && ch.isOpen()) {
        int n = Math.min(data.length - at, 1 + (data[at] & 0x3f));
        ch.writeInbound(Unpooled.wrappedBuffer(data, at, n));
        ch.runPendingTasks();
        ch.checkException();
        at += n;
      }
      ch.close();
      ch.checkException();
    } finally {
      ch.finishAndReleaseAll();
    }
  }

  @FuzzTest
  void plogpFrames(byte[] data) {
    PLogPFrame.Reader reader = new PLogPFrame.Reader();
    ByteBuf in = Unpooled.wrappedBuffer(data);
    try {
      while (in.isReadable()) {
        int before = in.readableBytes();
        ByteBuf piece =
            in.readSlice(Math.min(in.readableBytes(), 1 + (in.getByte(in.readerIndex()) & 0x0f)));
        while (piece.isReadable()) {
          if (reader.feed(piece)) {
            int op = reader.op();
            assertEquals(true, op >= PLogPFrame.DATA && op <= PLogPFrame.SEND, "op " + op);
            assertEquals(true, reader.length() >= 0 && reader.length() <= PLogPFrame.MAX_LENGTH);
          }
        }
        assertEquals(true, in.readableBytes() < before, "reader made progress");
      }
    } catch (IllegalArgumentException e) {
      assertNotNull(e.getMessage());
    }
    // Every frame the encoder writes is read back whole, with its op and length.
    if (data.length >= 3) {
      int op = PLogPFrame.DATA + (data[0] & 0xff) % 3;
      int length = ((data[1] & 0xff) << 8) | (data[2] & 0xff);
      ByteBuf frame = PLogPFrame.encode(ByteBufAllocator.DEFAULT, op, length);
      try {
        assertEquals(PLogPFrame.wireBytes(op, length), frame.readableBytes());
        PLogPFrame.Reader r = new PLogPFrame.Reader();
        assertEquals(true, r.feed(frame));
        assertEquals(op, r.op());
        assertEquals(length, r.length());
        assertEquals(0, frame.readableBytes());
      } finally {
        frame.release();
      }
    }
  }

  @FuzzTest
  void helloCodec(byte[] data) {
    ByteBuf in = Unpooled.wrappedBuffer(data);
    if (data.length >= ProbeHello.LENGTH) {
      try {
        ProbeHello h = ProbeHello.decode(in);
        ByteBuf out = h.encode(ByteBufAllocator.DEFAULT);
        assertEquals(h, ProbeHello.decode(out));
        out.release();
      } catch (IllegalArgumentException e) {
        assertNotNull(e.getMessage());
      }
    }
  }
}
