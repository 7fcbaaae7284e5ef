package org.netweather.sensor.probe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Sends every byte it reads straight back: the server's side of a latency probe.
 *
 * <p>Reading pauses while the echo cannot be written, so a peer that does not read its echoes
 * cannot make this server buffer without bound.
 */
final class EchoHandler extends ChannelInboundHandlerAdapter {

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ctx.write(msg, ctx.voidPromise());
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    ctx.flush();
    ReadBackpressure.pauseIfUnwritable(ctx);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    ReadBackpressure.resumeIfWritable(ctx);
  }
}
