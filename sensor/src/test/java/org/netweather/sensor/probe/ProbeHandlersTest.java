package org.netweather.sensor.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.FakeTicker;

/** The server's handlers, driven through {@link EmbeddedChannel}s with a frozen clock. */
class ProbeHandlersTest {

  private final FakeTicker ticker = new FakeTicker();
  private final ProbeServerOptions options = ProbeServerOptions.defaults(new InetSocketAddress(0));

  private static ByteBuf bytes(String s) {
    return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
  }

  private static ByteBuf hello(ProbeHello h) {
    return h.encode(ByteBufAllocator.DEFAULT);
  }

  private static ByteBuf read(int n) {
    return Unpooled.buffer(n).writeZero(n);
  }

  private EmbeddedChannel frozen() {
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.freezeTime();
    return ch;
  }

  @Test
  void helloDecoder_echoHelloWithTrailingBytes_switchesToEchoAndEchoesThem() {
    EmbeddedChannel ch = new EmbeddedChannel(new ProbeHelloDecoder(options, ticker));

    ch.writeInbound(Unpooled.wrappedBuffer(hello(ProbeHello.echo()), bytes("ab")));
    ch.writeInbound(bytes("c"));

    assertNull(ch.pipeline().get(ProbeHelloDecoder.class));
    assertNotNull(ch.pipeline().get(EchoHandler.class));
    StringBuilder echoed = new StringBuilder();
    for (ByteBuf b; (b = ch.readOutbound()) != null; b.release()) {
      echoed.append(b.toString(StandardCharsets.US_ASCII));
    }
    assertEquals("abc", echoed.toString());
  }

  @Test
  void helloDecoder_helloSplitAcrossReads_waitsForAll16Bytes() {
    EmbeddedChannel ch = new EmbeddedChannel(new ProbeHelloDecoder(options, ticker));
    ByteBuf h = hello(ProbeHello.echo());

    ch.writeInbound(h.readRetainedSlice(7));
    assertNotNull(ch.pipeline().get(ProbeHelloDecoder.class));
    ch.writeInbound(h);

    assertNotNull(ch.pipeline().get(EchoHandler.class));
  }

  @Test
  void helloDecoder_badMagic_closes() {
    EmbeddedChannel ch = new EmbeddedChannel(new ProbeHelloDecoder(options, ticker));

    ch.writeInbound(bytes("GET / HTTP/1.1\r\n\r\n"));

    assertFalse(ch.isOpen());
  }

  @Test
  void helloDecoder_silentPastHelloTimeout_closes() {
    EmbeddedChannel ch = frozen();
    ch.pipeline().addLast(new ProbeHelloDecoder(options, ticker));

    ch.advanceTimeBy(9, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();
    assertTrue(ch.isOpen());
    ch.advanceTimeBy(2, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();

    assertFalse(ch.isOpen());
  }

  @Test
  void helloDecoder_sinkHello_markIntervalFlooredByServer() {
    EmbeddedChannel ch = new EmbeddedChannel(new ProbeHelloDecoder(options, ticker));

    ch.writeInbound(hello(ProbeHello.sink(1, 1000)));

    assertNotNull(ch.pipeline().get(SinkHandler.class));
  }

  @Test
  void sink_readsAtVariousTimes_marksFirstReadThenOncePerInterval() {
    EmbeddedChannel ch = frozen();
    ch.pipeline().addLast(new SinkHandler(ticker, 5_000_000, 1 << 20));

    ch.writeInbound(read(1000));
    assertEquals(new SinkMark(1000, 0), readMark(ch));

    ticker.advance(Duration.ofMillis(1));
    ch.writeInbound(read(1000));
    assertNull(readMark(ch));

    ticker.advance(Duration.ofMillis(5));
    ch.writeInbound(read(1000));
    assertEquals(new SinkMark(3000, 6_000_000), readMark(ch));
  }

  @Test
  void sink_readsStopBetweenMarks_trailingMarkCarriesLastReadTime() {
    EmbeddedChannel ch = frozen();
    ch.pipeline().addLast(new SinkHandler(ticker, 5_000_000, 1 << 20));
    ch.writeInbound(read(100));
    readMark(ch);

    ticker.advance(Duration.ofMillis(2));
    ch.writeInbound(read(50));
    assertNull(readMark(ch));
    ticker.advance(Duration.ofMillis(5));
    ch.advanceTimeBy(5, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();

    assertEquals(new SinkMark(150, 2_000_000), readMark(ch));
  }

  @Test
  void sink_backlogReadInOneLoop_markedAtTheLoopsEndWithItsLastReadTime() {
    EmbeddedChannel ch = frozen();
    ch.pipeline().addLast(new SinkHandler(ticker, 5_000_000, 1 << 20));
    ch.writeInbound(read(1000));
    readMark(ch);

    // The reader stalled for 50 ms; one read loop then drains the backlog in several reads.
    ticker.advance(Duration.ofMillis(50));
    ch.pipeline().fireChannelRead(read(4096));
    ticker.advance(Duration.ofMillis(1));
    ch.pipeline().fireChannelRead(read(500));
    assertNull(readMark(ch));
    ch.pipeline().fireChannelReadComplete();

    assertEquals(new SinkMark(5596, 51_000_000), readMark(ch));
  }

  @Test
  void sink_overByteCap_closes() {
    EmbeddedChannel ch = frozen();
    ch.pipeline().addLast(new SinkHandler(ticker, 0, 1000));

    ch.writeInbound(read(600));
    assertTrue(ch.isOpen());
    assertNull(ch.readOutbound());
    ch.writeInbound(read(600));

    assertFalse(ch.isOpen());
  }

  @Test
  void allowList_nonIpRemote_refused() {
    EmbeddedChannel ch = new EmbeddedChannel(new AllowListFilter(remote -> true));

    assertFalse(ch.isOpen());
  }

  @Test
  void markDecoder_marksSplitAcrossReads_reassembled() {
    EmbeddedChannel ch = new EmbeddedChannel(new SinkMarkDecoder());
    ByteBuf two =
        Unpooled.wrappedBuffer(
            new SinkMark(1, 2).encode(ByteBufAllocator.DEFAULT),
            new SinkMark(3, 4).encode(ByteBufAllocator.DEFAULT));

    ch.writeInbound(two.readRetainedSlice(20));
    ch.writeInbound(two);

    assertEquals(new SinkMark(1, 2), ch.readInbound());
    assertEquals(new SinkMark(3, 4), ch.readInbound());
    assertNull(ch.readInbound());
  }

  private static SinkMark readMark(EmbeddedChannel ch) {
    ByteBuf b = ch.readOutbound();
    if (b == null) {
      return null;
    }
    SinkMark m = SinkMark.decode(b);
    assertEquals(0, b.readableBytes());
    b.release();
    return m;
  }
}
