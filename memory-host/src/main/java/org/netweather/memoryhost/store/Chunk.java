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

  /**
   * The number of points the chunk says it holds, checked against what its bits can hold (callers
   * size buffers by it, so a damaged count must not ask for gigabytes).
   *
   * @throws IllegalStateException if the chunk is shorter than its header or its count is
   *     impossible
   */
  static int count(byte[] chunk) {
    int count = header(chunk).getInt(1);
    // The first point takes 128 bits, each later one at least 2.
    long bits = (long) (chunk.length - HEADER) * 8;
    long most = bits < 128 ? 0 : 1 + (bits - 128) / 2;
    if (count < 1 || count > most) {
      throw new IllegalStateException(
          "chunk of " + chunk.length + " bytes cannot hold the " + count + " points it claims");
    }
    return count;
  }

  static long minTime(byte[] chunk) {
    return header(chunk).getLong(5);
  }

  static long maxTime(byte[] chunk) {
    return header(chunk).getLong(13);
  }

  private static ByteBuffer header(byte[] chunk) {
    if (chunk.length < HEADER) {
      throw new IllegalStateException("chunk of " + chunk.length + " bytes has no whole header");
    }
    return ByteBuffer.wrap(chunk);
  }

  /**
   * Appends the chunk's points to {@code out}.
   *
   * @throws IllegalStateException if the chunk is malformed
   */
  static void decodeInto(byte[] chunk, PointBuffer out) {
    if (header(chunk).get(0) != VERSION) {
      throw new IllegalStateException("chunk version " + chunk[0] + " is not supported");
    }
    long bits = (long) (chunk.length - HEADER) * 8;
    out.addAll(new GorillaDecoder(chunk, HEADER, bits, count(chunk)));
  }
}
