package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.netweather.sensor.Ticker;

/**
 * The client's side of a paced transfer for interference experiments: either sends payload into a
 * sink at a rate, or asks the server to source payload at a rate and counts what arrives.
 *
 * <pre>
 * send:    hello(SINK, 0 = no marks, max bytes), then paced payload   client ==> server
 * receive: hello(SOURCE, KiB/s, max bytes)                            client <== server
 * </pre>
 */
final class TransferClientHandler extends ChannelInboundHandlerAdapter {

  private final boolean send;
  private final double bytesPerSecond;
  private final long maxBytes;
  private final Ticker ticker;
  private volatile PacedWriter writer;
  private boolean begun;
  private volatile long received;

  TransferClientHandler(boolean send, double bytesPerSecond, long maxBytes, Ticker ticker) {
    this.send = send;
    this.bytesPerSecond = bytesPerSecond;
    this.maxBytes = maxBytes;
    this.ticker = ticker;
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
    if (send) {
      ctx.writeAndFlush(ProbeHello.sink(0, maxBytes).encode(ctx.alloc()), ctx.voidPromise());
      writer = new PacedWriter(ctx.channel(), ticker, bytesPerSecond, maxBytes, () -> {});
      writer.start();
    } else {
      long kib = bytesPerSecond <= 0 ? 0 : Math.max(1, Math.round(bytesPerSecond / 1024));
      ctx.writeAndFlush(ProbeHello.source(kib, maxBytes).encode(ctx.alloc()), ctx.voidPromise());
    }
  }

  @Override
  @SuppressWarnings("NonAtomicVolatileUpdate") // single writer, see below
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof ByteBuf buf) {
      // Only the event loop writes this field; volatile lets the experiment thread read it.
      received += buf.readableBytes();
    }
    ReferenceCountUtil.release(msg);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (writer != null && ctx.channel().isWritable()) {
      writer.pump();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (writer != null) {
      writer.stop();
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }

  /** Payload bytes sent (handed to the kernel) or received so far. */
  long bytes() {
    PacedWriter w = writer;
    return send ? (w == null ? 0 : w.written()) : received;
  }
}
