package org.netweather.sensor.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.FakeTicker;

/** The pLogP frame codec and both handlers, through {@link EmbeddedChannel}s. */
class PLogPHandlersTest {
  private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
  private final FakeTicker ticker = new FakeTicker();

  private static ByteBuf frame(int op, int length) {
    return PLogPFrame.encode(ALLOC, op, length);
  }

  /** Every whole message in {@code out}, as {op, length}, then releases it. */
  private static List<int[]> messages(EmbeddedChannel ch) {
    PLogPFrame.Reader reader = new PLogPFrame.Reader();
    List<int[]> out = new ArrayList<>();
    for (ByteBuf b; (b = ch.readOutbound()) != null; b.release()) {
      while (b.isReadable()) {
        if (reader.feed(b)) {
          out.add(new int[] {reader.op(), reader.length()});
        }
      }
    }
    return out;
  }

  @Test
  void frame_encode_headerThenZeroPayload() {
    ByteBuf f = frame(PLogPFrame.DATA_ACK, 70_000);

    assertEquals(PLogPFrame.HEADER + 70_000, f.readableBytes());
    assertEquals(PLogPFrame.DATA_ACK, f.getByte(0));
    assertEquals(70_000, f.getInt(4));
    assertEquals(0, f.getByte(PLogPFrame.HEADER + 69_999));
    assertEquals(PLogPFrame.HEADER, frame(PLogPFrame.SEND, 70_000).readableBytes());
    f.release();
  }

  @Test
  void reader_messagesSplitAndJoinedAnyhow_findsEachBoundary() {
    ByteBuf stream =
        Unpooled.wrappedBuffer(
            frame(PLogPFrame.DATA, 0),
            frame(PLogPFrame.DATA, 5),
            frame(PLogPFrame.SEND, 1 << 20),
            frame(PLogPFrame.DATA_ACK, 3));
    PLogPFrame.Reader reader = new PLogPFrame.Reader();
    List<String> seen = new ArrayList<>();

    while (stream.isReadable()) {
      ByteBuf piece = stream.readSlice(Math.min(3, stream.readableBytes()));
      while (piece.isReadable()) {
        if (reader.feed(piece)) {
          seen.add(reader.op() + ":" + reader.length());
        }
      }
    }

    assertEquals(List.of("1:0", "1:5", "3:1048576", "2:3"), seen);
    stream.release();
  }

  @Test
  void reader_lengthOverMax_rejected() {
    ByteBuf bad =
        Unpooled.buffer()
            .writeByte(PLogPFrame.DATA)
            .writeZero(3)
            .writeInt(PLogPFrame.MAX_LENGTH + 1);

    assertThrows(IllegalArgumentException.class, () -> new PLogPFrame.Reader().feed(bad));
  }

  @Test
  void helloDecoder_plogpHello_switchesToPLogPHandler() {
    EmbeddedChannel ch =
        new EmbeddedChannel(
            new ProbeHelloDecoder(ProbeServerOptions.defaults(new InetSocketAddress(0)), ticker));

    ch.writeInbound(
        Unpooled.wrappedBuffer(ProbeHello.plogp().encode(ALLOC), frame(PLogPFrame.DATA_ACK, 2)));

    assertNull(ch.pipeline().get(ProbeHelloDecoder.class));
    assertNotNull(ch.pipeline().get(PLogPHandler.class));
    assertEquals(1, messages(ch).size());
  }

  @Test
  void server_dataAckAndSend_answerOnlyWhenWhole() {
    EmbeddedChannel ch = new EmbeddedChannel(new PLogPHandler(1 << 20, 1 << 20));

    ch.writeInbound(frame(PLogPFrame.DATA, 100));
    ByteBuf ack = frame(PLogPFrame.DATA_ACK, 100);
    ch.writeInbound(ack.readRetainedSlice(50));
    assertTrue(messages(ch).isEmpty());
    ch.writeInbound(ack);
    ch.writeInbound(frame(PLogPFrame.SEND, 1000));

    List<int[]> answers = messages(ch);
    assertEquals(2, answers.size());
    assertEquals(PLogPFrame.DATA, answers.get(0)[0]);
    assertEquals(0, answers.get(0)[1]);
    assertEquals(1000, answers.get(1)[1]);
  }

  @Test
  void server_pastReceiveCapOrSendCapOrBadHeader_closes() {
    EmbeddedChannel received = new EmbeddedChannel(new PLogPHandler(100, 1 << 20));
    received.writeInbound(frame(PLogPFrame.DATA, 200));
    assertFalse(received.isOpen());

    EmbeddedChannel sent = new EmbeddedChannel(new PLogPHandler(1 << 20, 100));
    sent.writeInbound(frame(PLogPFrame.SEND, 200));
    assertFalse(sent.isOpen());

    EmbeddedChannel bad = new EmbeddedChannel(new PLogPHandler(1 << 20, 1 << 20));
    bad.writeInbound(Unpooled.buffer().writeByte(9).writeZero(7));
    assertFalse(bad.isOpen());
  }

  @Test
  void client_burst_sendsNMessagesAndTimesUntilAnswer() throws Exception {
    PLogPClientHandler h = new PLogPClientHandler(ticker);
    EmbeddedChannel ch = new EmbeddedChannel(h);
    assertFalse(ch.config().isAutoRead());

    CompletableFuture<Long> t = h.burst(4, 10);
    ch.runPendingTasks();
    ByteBuf hello = ch.readOutbound();
    assertEquals(ProbeHello.plogp(), ProbeHello.decode(hello));
    hello.release();
    List<int[]> sent = messages(ch);
    assertEquals(4, sent.size());
    assertEquals(PLogPFrame.DATA, sent.get(0)[0]);
    assertEquals(PLogPFrame.DATA_ACK, sent.get(3)[0]);
    assertFalse(t.isDone());

    ticker.advance(7_000);
    ch.writeInbound(frame(PLogPFrame.DATA, 0));

    assertEquals(7_000L, t.get(1, TimeUnit.SECONDS));
    assertEquals(ProbeHello.LENGTH + 4 * 18 + 8, h.bytes());
  }

  @Test
  void client_receiveOverhead_asksThenTimesFromTheDelayedRead() throws Exception {
    PLogPClientHandler h = new PLogPClientHandler(ticker);
    EmbeddedChannel ch = new EmbeddedChannel(h);
    ch.readOutbound();

    CompletableFuture<Long> t = h.receiveOverhead(64, 1_000_000);
    ch.runPendingTasks();
    List<int[]> sent = messages(ch);
    assertEquals(PLogPFrame.SEND, sent.get(0)[0]);
    assertEquals(64, sent.get(0)[1]);
    ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    ticker.advance(3_000);
    ByteBuf answer = frame(PLogPFrame.DATA, 64);
    ch.writeInbound(answer.readRetainedSlice(40));
    assertFalse(t.isDone());
    ticker.advance(2_000);
    ch.writeInbound(answer);

    assertEquals(5_000L, t.get(1, TimeUnit.SECONDS));
  }

  @Test
  void client_secondTimingWhileOneRuns_failsAndPeerCloseFailsTheFirst() {
    PLogPClientHandler h = new PLogPClientHandler(ticker);
    EmbeddedChannel ch = new EmbeddedChannel(h);
    CompletableFuture<Long> first = h.sendOverhead(10);
    CompletableFuture<Long> second = h.burst(2, 0);
    ch.runPendingTasks();

    assertTrue(second.isCompletedExceptionally());
    ch.close().syncUninterruptibly();
    assertTrue(first.isCompletedExceptionally());
  }
}
