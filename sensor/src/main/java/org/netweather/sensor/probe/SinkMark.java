package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A sink's progress report: payload bytes received so far and when the last of them arrived, timed
 * by the receiver's own clock from the first payload byte.
 *
 * <pre>
 *  0                                                               8
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * |                    bytes received (u64)                       |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * |          nanoseconds since the first payload byte (u64)       |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 *  8                                                              16
 * </pre>
 *
 * <p>Receiver-side times are the point: they show when bytes left the bottleneck, so the rate
 * between two marks excludes the latency and the sender's buffering.
 */
public record SinkMark(long bytes, long nanos) {

  public static final int LENGTH = 16;

  public ByteBuf encode(ByteBufAllocator alloc) {
    return alloc.buffer(LENGTH).writeLong(bytes).writeLong(nanos);
  }

  public static SinkMark decode(ByteBuf in) {
    return new SinkMark(in.readLong(), in.readLong());
  }
}
