package org.netweather.sensor.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.FakeTicker;
import org.netweather.sensor.Reading;

/** The client's handlers, driven through {@link EmbeddedChannel}s with fake time. */
class ClientHandlersTest {

  private final FakeTicker ticker = new FakeTicker();

  private static long drainPayload(EmbeddedChannel ch, boolean expectHello) {
    long payload = 0;
    boolean first = true;
    for (ByteBuf b; (b = ch.readOutbound()) != null; b.release()) {
      if (first && expectHello) {
        assertEquals(ProbeHello.LENGTH, b.readableBytes());
        first = false;
        continue;
      }
      payload += b.readableBytes();
    }
    return payload;
  }

  @Test
  void bandwidth_marksAtSteadyRate_completesWithRateAndBytesSpent() throws Exception {
    ProbeClientOptions options =
        ProbeClientOptions.defaults()
            .withTrain(Duration.ofMillis(100), Duration.ofMillis(800), 1 << 20);
    CompletableFuture<Reading> result = new CompletableFuture<>();
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.freezeTime();
    ch.pipeline().addLast(new SinkMarkDecoder(), new BandwidthClientHandler(options, 0, result));
    long written = drainPayload(ch, true);
    // The window before any mark has come back.
    assertEquals(BandwidthClientHandler.MIN_WINDOW, written);

    int marks = 0;
    for (long t = 0; !result.isDone(); t += 5_000_000) {
      ch.writeInbound(new SinkMark((long) (t / 1e9 * 10e6), t).encode(ByteBufAllocator.DEFAULT));
      marks++;
      written += drainPayload(ch, false);
    }
    Reading r = result.get();

    assertEquals(80, r.value(), 1e-6);
    assertEquals("Mbit/s", r.unit());
    assertEquals(1.0, r.extras().get("converged"));
    assertEquals(ProbeHello.LENGTH + written + 16L * marks, r.bytesSpent());
    assertFalse(ch.isOpen());
  }

  @Test
  void bandwidth_marksConfirmBytes_windowSlidesWithThem() {
    ProbeClientOptions options =
        ProbeClientOptions.defaults()
            .withTrain(Duration.ofMillis(100), Duration.ofMillis(800), 64 << 20);
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.freezeTime();
    ch.pipeline()
        .addLast(
            new SinkMarkDecoder(),
            new BandwidthClientHandler(options, 0, new CompletableFuture<>()));
    drainPayload(ch, true);

    // 100 KB confirmed at 1 MB/s: the rate-based window (2 * 1 MB/s * 10 ms) is below the 64 KiB
    // floor, so 100 KB more may go out.
    ch.writeInbound(new SinkMark(0, 0).encode(ByteBufAllocator.DEFAULT));
    ch.writeInbound(new SinkMark(100_000, 100_000_000).encode(ByteBufAllocator.DEFAULT));
    long more = drainPayload(ch, false);

    assertEquals(100_000.0, (double) more, PacedWriter.CHUNK);
  }

  @Test
  void bandwidth_noMarksBeforeDeadline_failsWithIoException() {
    ProbeClientOptions options =
        ProbeClientOptions.defaults()
            .withTrain(Duration.ofMillis(100), Duration.ofMillis(800), 1 << 20);
    CompletableFuture<Reading> result = new CompletableFuture<>();
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.freezeTime();
    ch.pipeline().addLast(new BandwidthClientHandler(options, 0, result));

    ch.advanceTimeBy(options.timeout().toNanos(), TimeUnit.NANOSECONDS);
    ch.runScheduledPendingTasks();

    assertTrue(result.isCompletedExceptionally());
  }

  @Test
  void pacedSend_oneMegabytePerSecondFor100ms_sendsAbout100KB() {
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.freezeTime();
    TransferClientHandler h = new TransferClientHandler(true, 1e6, 1 << 30, ticker);
    ch.pipeline().addLast(h);
    for (int i = 0; i < 20; i++) {
      ticker.advance(5_000_000);
      ch.advanceTimeBy(5, TimeUnit.MILLISECONDS);
      ch.runScheduledPendingTasks();
    }

    long payload = drainPayload(ch, true);

    assertEquals(100_000.0, (double) payload, 5_001.0);
    assertEquals(payload, h.bytes());
  }

  @Test
  void pacedReceive_sourceHelloAsksForRateInKiB() {
    EmbeddedChannel ch = new EmbeddedChannel();
    TransferClientHandler h = new TransferClientHandler(false, 2048 * 1024, 1 << 20, ticker);
    ch.pipeline().addLast(h);

    ByteBuf hello = ch.readOutbound();
    assertEquals(ProbeHello.source(2048, 1 << 20), ProbeHello.decode(hello));
    hello.release();
    ch.writeInbound(Unpooled.wrappedBuffer(new byte[777]));

    assertEquals(777, h.bytes());
  }
}
