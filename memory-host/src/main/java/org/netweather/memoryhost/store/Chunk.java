package org.netweather.memoryhost.store;

import java.nio.ByteBuffer;

/**
 * A sealed run of one series' points, sorted by time, Gorilla-encoded.
 *
 * <pre>
 *   chunk = version:int8(1)  count:int32  minTime:int64  maxTime:int64  gorilla-bits
 * </pre>
 */
final class Chunk {
  static final int HEADER = 21;
  private static final byte VERSION = 1;

  private Chunk() {}

  /** Encodes sorted points. */
  static byte[] encode(long[] times, double[] values, int from, int to) {
    GorillaEncoder e = new GorillaEncoder(Math.max(32, (to - from) * 4));
    for (int i = from; i < to; i++) {
      e.add(times[i], values[i]);
    }
    byte[] bits = e.toByteArray();
    return ByteBuffer.allocate(HEADER + bits.length)
        .put(VERSION)
        .putInt(to - from)
        .putLong(times[from])
        .putLong(times[to - 1])
        .put(bits)
        .array();
  }

  static int count(byte[] chunk) {
    return ByteBuffer.wrap(chunk).getInt(1);
  }

  static long minTime(byte[] chunk) {
    return ByteBuffer.wrap(chunk).getLong(5);
  }

  static long maxTime(byte[] chunk) {
    return ByteBuffer.wrap(chunk).getLong(13);
  }

  /** Appends the chunk's points to {@code out}. */
  static void decodeInto(byte[] chunk, PointBuffer out) {
    if (chunk[0] != VERSION) {
      throw new IllegalStateException("chunk version " + chunk[0] + " is not supported");
    }
    long bits = (long) (chunk.length - HEADER) * 8;
    out.addAll(new GorillaDecoder(chunk, HEADER, bits, count(chunk)));
  }
}
