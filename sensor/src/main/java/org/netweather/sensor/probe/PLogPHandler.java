package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * Answers {@link PLogPFrame} messages: the server's side of pLogP measurement. DATA is discarded,
 * DATA_ACK answered with an empty DATA once all of it has arrived, SEND with a DATA of the length
 * asked; each answer is flushed at once, so it leaves as soon as it can.
 *
 * <p>A connection that sends a malformed header, more than its receive cap, or asks for more than
 * its send cap is closed. Reading pauses while answers cannot be written, as in {@link
 * EchoHandler}.
 */
final class PLogPHandler extends ChannelInboundHandlerAdapter {
  private final PLogPFrame.Reader reader = new PLogPFrame.Reader();
  private final long maxReceived;
  private final long maxSent;
  private long received;
  private long sent;

  PLogPHandler(long maxReceived, long maxSent) {
    this.maxReceived = maxReceived;
    this.maxSent = maxSent;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (!(msg instanceof ByteBuf in) || !ctx.channel().isActive()) {
        return;
      }
      received += in.readableBytes();
      if (received > maxReceived) {
        ctx.close();
        return;
      }
      while (in.isReadable()) {
        if (reader.feed(in)) {
          answer(ctx, reader.op(), reader.length());
        }
      }
    } catch (IllegalArgumentException e) {
      ctx.close();
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void answer(ChannelHandlerContext ctx, int op, int length) {
    int reply = op == PLogPFrame.DATA_ACK ? 0 : op == PLogPFrame.SEND ? length : -1;
    if (reply < 0) {
      return;
    }
    sent += PLogPFrame.wireBytes(PLogPFrame.DATA, reply);
    if (sent > maxSent) {
      ctx.close();
      return;
    }
    ctx.writeAndFlush(PLogPFrame.encode(ctx.alloc(), PLogPFrame.DATA, reply), ctx.voidPromise());
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    ReadBackpressure.pauseIfUnwritable(ctx);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    ReadBackpressure.resumeIfWritable(ctx);
  }
}
