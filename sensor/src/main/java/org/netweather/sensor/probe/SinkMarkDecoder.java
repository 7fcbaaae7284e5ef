package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/** Splits a sink's reply stream into {@link SinkMark}s (16 bytes each, see there). */
final class SinkMarkDecoder extends ByteToMessageDecoder {

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (in.readableBytes() >= SinkMark.LENGTH) {
      out.add(SinkMark.decode(in));
    }
  }
}
