package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * First on a probe client's pipeline when the site has a {@link ProbeKey}: replaces the
 * connection's first write, its {@link ProbeHello}, with the sealed hello, then leaves the
 * pipeline, so the handlers that speak each mode need not know about keys.
 */
final class HelloSealer extends ChannelOutboundHandlerAdapter {
  private final ProbeKey key;

  HelloSealer(ProbeKey key) {
    this.key = key;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (!(msg instanceof ByteBuf plain) || plain.readableBytes() < ProbeHello.LENGTH) {
      ctx.write(msg, promise);
      return;
    }
    ProbeHello hello;
    try {
      hello = ProbeHello.decode(plain);
    } catch (IllegalArgumentException e) {
      plain.release();
      promise.setFailure(e);
      return;
    }
    ByteBuf rest = plain.readableBytes() > 0 ? plain.retainedSlice() : null;
    plain.release();
    ctx.pipeline().remove(this);
    ctx.write(key.seal(hello, ctx.alloc()), rest == null ? promise : ctx.voidPromise());
    if (rest != null) {
      ctx.write(rest, promise);
    }
  }
}
