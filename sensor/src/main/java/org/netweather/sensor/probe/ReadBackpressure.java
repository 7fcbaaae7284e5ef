package org.netweather.sensor.probe;

import io.netty.channel.ChannelHandlerContext;

/**
 * Reply-writing handlers stop reading while their channel is unwritable, so a peer that sends
 * faster than it reads cannot make the server queue replies without bound.
 */
final class ReadBackpressure {
  private ReadBackpressure() {}

  /** Call from {@code channelReadComplete}, after writing. */
  static void pauseIfUnwritable(ChannelHandlerContext ctx) {
    if (!ctx.channel().isWritable()) {
      ctx.channel().config().setAutoRead(false);
    }
  }

  /** Call from {@code channelWritabilityChanged}; passes the event on. */
  static void resumeIfWritable(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()) {
      ctx.channel().config().setAutoRead(true);
    }
    ctx.fireChannelWritabilityChanged();
  }
}
