package org.netweather.sensor.probe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.netweather.sensor.Reading;

/**
 * The client's side of a bandwidth train: streams payload into a sink and stops as soon as the
 * sink's marks say the rate has converged (see {@link TrainRateEstimator}).
 *
 * <pre>
 * client                                   server (SinkHandler)
 *   | hello(SINK, mark interval, max bytes)  |
 *   |--------------------------------------->|
 *   | payload, as fast as TCP allows ...     |
 *   |=======================================>|  t = 0 at the first byte
 *   |               mark(bytes, t) every ~5 ms|
 *   |<---------------------------------------|
 *   | ... until converged or capped: RST     |
 *   |--------------------------------------->|
 * </pre>
 *
 * <p>Marks clock the sender. Payload handed to the kernel but not yet confirmed by a mark is kept
 * under a window of twice what the path delivers in (RTT + 2 mark intervals), at the rate the
 * latest marks show, and at least 64 KiB. That is ample to keep the bottleneck busy (a full window
 * covers twice the bandwidth-delay product, and TCP can at most double its rate per round trip),
 * but it keeps the kernel's auto-tuned send buffer from filling with megabytes that would only be
 * thrown away when the train stops, and it keeps a shaper's queue from overflowing: a loss stalls
 * in-order delivery until the retransmission arrives, then releases the held bytes at once, and
 * those steps in the arrival curve are what make a short train misread a path.
 *
 * <p>The train ends with a reset (SO_LINGER 0) rather than a FIN, so payload still queued in the
 * kernel is dropped instead of sent. {@code bytesSpent} counts the hello, the payload handed to the
 * kernel (an upper bound on what crossed the wire, at most one window above what arrived) and the
 * marks; the extra {@code receivedBytes} is what the sink had confirmed (a lower bound).
 */
final class BandwidthClientHandler extends ChannelInboundHandlerAdapter {

  static final long MIN_WINDOW = 64 * 1024;
  private static final long RATE_SPAN_NANOS = 50_000_000;

  private final ProbeClientOptions options;
  private final TrainRateEstimator estimator;
  private final CompletableFuture<Reading> result;
  private final long rttNanos;
  private final long maxTrainNanos;
  private final long[] recentBytes = new long[64];
  private final long[] recentNanos = new long[64];
  private int recent;
  private ChannelHandlerContext ctx;
  private long queued;
  private long written;
  private long confirmed;
  private long window = MIN_WINDOW;
  private ScheduledFuture<?> deadline;
  private int marks;
  private boolean finished;
  private boolean begun;

  /**
   * @param rttNanos the connection's round trip as seen at connect; the train lasts at least 8 and
   *     may last 16 of them
   */
  BandwidthClientHandler(
      ProbeClientOptions options, long rttNanos, CompletableFuture<Reading> result) {
    this.options = options;
    long min =
        Math.min(
            options.maxTrain().toNanos(), Math.max(options.minTrain().toNanos(), 8 * rttNanos));
    this.estimator = new TrainRateEstimator(min, options.tolerance(), 4);
    this.result = result;
    this.rttNanos = rttNanos;
    // A long path needs more round trips to open its window than the cap allows for.
    this.maxTrainNanos = Math.max(options.maxTrain().toNanos(), 16 * rttNanos);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (ctx.channel().isActive()) {
      begin(ctx);
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    begin(ctx);
    ctx.fireChannelActive();
  }

  private void begin(ChannelHandlerContext ctx) {
    if (begun) {
      return;
    }
    begun = true;
    long markMicros = Math.max(1, options.markInterval().toNanos() / 1_000);
    ctx.writeAndFlush(
        ProbeHello.sink(markMicros, options.maxTrainBytes()).encode(ctx.alloc()),
        ctx.voidPromise());
    this.ctx = ctx;
    pump();
    deadline =
        ctx.executor()
            .schedule(() -> finish(ctx), options.timeout().toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Writes while the channel is writable, under the byte cap and the mark-clocked window. */
  private void pump() {
    boolean wrote = false;
    while (!finished
        && queued < options.maxTrainBytes()
        && queued - confirmed < window
        && ctx.channel().isWritable()) {
      int n = (int) Math.min(PacedWriter.CHUNK, options.maxTrainBytes() - queued);
      ctx.write(PacedWriter.payload(n))
          .addListener(
              f -> {
                if (f.isSuccess()) {
                  written += n;
                }
              });
      queued += n;
      wrote = true;
    }
    if (wrote) {
      ctx.flush();
    }
  }

  /** Opens the window to twice the path's recent delivery over (RTT + 2 mark intervals). */
  private void openWindow(SinkMark mark) {
    int i = recent % recentBytes.length;
    recentBytes[i] = mark.bytes();
    recentNanos[i] = mark.nanos();
    recent++;
    int oldest = recent - 1;
    for (int k = 1; k < Math.min(recent, recentBytes.length); k++) {
      int j = (recent - 1 - k) % recentBytes.length;
      if (mark.nanos() - recentNanos[j] > RATE_SPAN_NANOS) {
        break;
      }
      oldest = recent - 1 - k;
    }
    int j = oldest % recentBytes.length;
    long dt = mark.nanos() - recentNanos[j];
    if (dt > 0) {
      double rate = (mark.bytes() - recentBytes[j]) / (dt / 1e9);
      double span = (rttNanos + 2 * options.markInterval().toNanos()) / 1e9;
      window = Math.max(MIN_WINDOW, (long) (2 * rate * span));
    }
    confirmed = Math.max(confirmed, mark.bytes());
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (this.ctx != null && ctx.channel().isWritable()) {
      pump();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof SinkMark mark) || finished) {
      return;
    }
    marks++;
    boolean converged = estimator.add(mark.bytes(), mark.nanos());
    boolean capped = mark.nanos() >= maxTrainNanos || mark.bytes() >= options.maxTrainBytes();
    if (converged || capped) {
      finish(ctx);
      return;
    }
    openWindow(mark);
    pump();
  }

  private void finish(ChannelHandlerContext ctx) {
    if (finished) {
      return;
    }
    finished = true;
    if (deadline != null) {
      deadline.cancel(false);
    }
    double rate = estimator.bytesPerSecond();
    long spent = options.helloBytes() + written + (long) marks * SinkMark.LENGTH;
    ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
    ctx.close();
    if (Double.isNaN(rate) || !(rate > 0)) {
      result.completeExceptionally(
          new IOException(
              "bandwidth train to "
                  + ctx.channel().remoteAddress()
                  + " got "
                  + estimator.marks()
                  + " marks, too few for a rate"));
      return;
    }
    result.complete(
        new Reading(
            rate * 8 / 1e6,
            "Mbit/s",
            spent,
            Map.of(
                "converged",
                estimator.converged() ? 1.0 : 0.0,
                "trainMs",
                estimator.elapsedNanos() / 1e6,
                "receivedBytes",
                (double) estimator.receivedBytes(),
                "marks",
                (double) estimator.marks())));
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    finish(ctx);
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    finish(ctx);
  }
}
