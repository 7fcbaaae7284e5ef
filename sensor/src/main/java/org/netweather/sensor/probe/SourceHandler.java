package org.netweather.sensor.probe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.netweather.sensor.Ticker;

/**
 * Sends payload to the client at the rate its hello asked for, then closes: the server's side of a
 * paced receive (the peer of an {@code interference.recv} experiment).
 */
final class SourceHandler extends ChannelInboundHandlerAdapter {

  private final Ticker ticker;
  private final double bytesPerSecond;
  private final long totalBytes;
  private PacedWriter writer;

  SourceHandler(Ticker ticker, double bytesPerSecond, long totalBytes) {
    this.ticker = ticker;
    this.bytesPerSecond = bytesPerSecond;
    this.totalBytes = totalBytes;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (totalBytes == 0) {
      ctx.close();
      return;
    }
    writer = new PacedWriter(ctx.channel(), ticker, bytesPerSecond, totalBytes, ctx::close);
    writer.start();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    // The client has nothing to say in this mode.
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
}
