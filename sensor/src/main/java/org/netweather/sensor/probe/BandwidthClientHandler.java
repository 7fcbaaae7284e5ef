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
import org.netweather.sensor.Ticker;

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
 * <p>The train ends with a reset (SO_LINGER 0) rather than a FIN, so payload still queued in the
 * kernel is dropped instead of sent. {@code bytesSpent} counts the hello, the payload handed to
 * the kernel (an upper bound on what crossed the wire) and the marks; the extra {@code
 * receivedBytes} is what the sink had confirmed (a lower bound).
 */
final class BandwidthClientHandler extends ChannelInboundHandlerAdapter {

  private final ProbeClientOptions options;
  private final Ticker ticker;
  private final TrainRateEstimator estimator;
  private final CompletableFuture<Reading> result;
  private PacedWriter writer;
  private ScheduledFuture<?> deadline;
  private int marks;
  private boolean finished;
  private boolean begun;

  /**
   * @param rttNanos the connection's round trip as seen at connect; the train lasts at least 8
   */
  BandwidthClientHandler(
      ProbeClientOptions options, Ticker ticker, long rttNanos, CompletableFuture<Reading> result) {
    this.options = options;
    this.ticker = ticker;
    long min = Math.min(options.maxTrain().toNanos(),
        Math.max(options.minTrain().toNanos(), 8 * rttNanos));
    this.estimator = new TrainRateEstimator(min, options.tolerance(), 4);
    this.result = result;
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
    writer = new PacedWriter(ctx.channel(), ticker, 0, options.maxTrainBytes(), () -> {});
    writer.start();
    deadline =
        ctx.executor()
            .schedule(() -> finish(ctx), options.timeout().toNanos(), TimeUnit.NANOSECONDS);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (writer != null && ctx.channel().isWritable()) {
      writer.pump();
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
    boolean capped =
        mark.nanos() >= options.maxTrain().toNanos() || mark.bytes() >= options.maxTrainBytes();
    if (converged || capped) {
      finish(ctx);
    }
  }

  private void finish(ChannelHandlerContext ctx) {
    if (finished) {
      return;
    }
    finished = true;
    if (writer != null) {
      writer.stop();
    }
    if (deadline != null) {
      deadline.cancel(false);
    }
    double rate = estimator.bytesPerSecond();
    long spent = ProbeHello.LENGTH + (writer == null ? 0 : writer.written())
        + (long) marks * SinkMark.LENGTH;
    ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
    ctx.close();
    if (Double.isNaN(rate) || !(rate > 0)) {
      result.completeExceptionally(
          new IOException("bandwidth train to " + ctx.channel().remoteAddress()
              + " got " + estimator.marks() + " marks, too few for a rate"));
      return;
    }
    result.complete(
        new Reading(
            rate * 8 / 1e6,
            "Mbit/s",
            spent,
            Map.of(
                "converged", estimator.converged() ? 1.0 : 0.0,
                "trainMs", estimator.elapsedNanos() / 1e6,
                "receivedBytes", (double) estimator.receivedBytes(),
                "marks", (double) estimator.marks())));
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
