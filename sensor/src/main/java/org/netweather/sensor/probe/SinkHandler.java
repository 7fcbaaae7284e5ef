package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.netweather.sensor.Ticker;

/**
 * Counts and discards payload, reporting progress as {@link SinkMark}s: the server's side of a
 * bandwidth train or a paced send.
 *
 * <p>Marks go out on the first read and then on the first read at least one mark interval after
 * the previous mark. Each mark carries the byte count and the time of a read, never of a timer
 * firing, so a late mark is still exact; when reads stop, a trailing mark reports the last read
 * one interval later. A connection that exceeds its byte cap is closed.
 */
final class SinkHandler extends ChannelInboundHandlerAdapter {

  private final Ticker ticker;
  private final long markIntervalNanos;
  private final long maxBytes;
  private long received;
  private long firstRead = -1;
  private long lastReadNanos;
  private long lastMarkAt;
  private long lastMarkedBytes = -1;
  private ScheduledFuture<?> trailing;

  /**
   * @param markIntervalNanos least time between marks; 0 sends none
   */
  SinkHandler(Ticker ticker, long markIntervalNanos, long maxBytes) {
    this.ticker = ticker;
    this.markIntervalNanos = markIntervalNanos;
    this.maxBytes = maxBytes;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    long now = ticker.nanoTime();
    int n = msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
    ReferenceCountUtil.release(msg);
    if (n == 0) {
      return;
    }
    received += n;
    if (received > maxBytes) {
      ctx.close();
      return;
    }
    if (firstRead < 0) {
      firstRead = now;
    }
    lastReadNanos = now - firstRead;
    if (markIntervalNanos == 0) {
      return;
    }
    if (lastMarkedBytes < 0 || now - lastMarkAt >= markIntervalNanos) {
      mark(ctx, now);
    } else if (trailing == null) {
      trailing =
          ctx.executor().schedule(() -> trailingMark(ctx), markIntervalNanos, TimeUnit.NANOSECONDS);
    }
  }

  private void trailingMark(ChannelHandlerContext ctx) {
    trailing = null;
    if (received > lastMarkedBytes && ctx.channel().isActive()) {
      mark(ctx, ticker.nanoTime());
    }
  }

  private void mark(ChannelHandlerContext ctx, long now) {
    lastMarkAt = now;
    lastMarkedBytes = received;
    ctx.writeAndFlush(new SinkMark(received, lastReadNanos).encode(ctx.alloc()), ctx.voidPromise());
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (trailing != null) {
      trailing.cancel(false);
    }
    ctx.fireChannelInactive();
  }

  /** Payload bytes received so far. */
  long received() {
    return received;
  }
}
