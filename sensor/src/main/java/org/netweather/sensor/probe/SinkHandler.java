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
 * <p>A mark must be a point on the path's arrival curve: all bytes that had arrived by its time. A
 * single read is not (after this process stalled, for GC or a busy CPU, the first reads of the
 * backlog lie below the curve and would bend the fitted rate), but the end of a read loop is: the
 * event loop keeps reading until the socket is empty (the server reads up to 64 buffers of up to 1
 * MiB per loop, see {@link ProbeServer}). So marks are taken at {@code channelReadComplete}, with
 * the time of the loop's last read, at most once per mark interval; a trailing mark one interval
 * later reports a loop that came too soon after the previous mark. A mark carries the time of a
 * read, never of a timer, so a late mark is still exact. A connection that exceeds its byte cap is
 * closed.
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
  private long pendingBytes = -1;
  private long pendingNanos;
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
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (markIntervalNanos == 0 || received == 0 || !ctx.channel().isActive()) {
      return;
    }
    long now = ticker.nanoTime();
    pendingBytes = received;
    pendingNanos = lastReadNanos;
    if (pendingBytes > lastMarkedBytes
        && (lastMarkedBytes < 0 || now - lastMarkAt >= markIntervalNanos)) {
      mark(ctx, now);
    } else if (trailing == null) {
      trailing =
          ctx.executor().schedule(() -> trailingMark(ctx), markIntervalNanos, TimeUnit.NANOSECONDS);
    }
  }

  private void trailingMark(ChannelHandlerContext ctx) {
    trailing = null;
    if (pendingBytes > lastMarkedBytes && ctx.channel().isActive()) {
      mark(ctx, ticker.nanoTime());
    }
  }

  private void mark(ChannelHandlerContext ctx, long now) {
    lastMarkAt = now;
    lastMarkedBytes = pendingBytes;
    ctx.writeAndFlush(
        new SinkMark(pendingBytes, pendingNanos).encode(ctx.alloc()), ctx.voidPromise());
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (trailing != null) {
      trailing.cancel(false);
    }
    ctx.fireChannelInactive();
  }
}
