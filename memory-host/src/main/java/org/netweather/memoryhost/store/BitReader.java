package org.netweather.memoryhost.store;

/** Reads bits, most significant first, written by {@link BitWriter}. Not thread-safe. */
final class BitReader {
  private final byte[] bytes;
  private final int offset;
  private final long limit;
  private long bits;

  /** Reads {@code limitBits} bits starting at byte {@code offset}. */
  BitReader(byte[] bytes, int offset, long limitBits) {
    this.bytes = bytes;
    this.offset = offset;
    this.limit = limitBits;
  }

  /** Reads {@code n} bits, n in [0, 64], as an unsigned value. */
  long read(int n) {
    if (bits + n > limit) {
      throw new IllegalStateException("read past the end of an encoded chunk");
    }
    long value = 0;
    while (n > 0) {
      int index = offset + (int) (bits >>> 3);
      int avail = 8 - (int) (bits & 7);
      int take = Math.min(avail, n);
      int chunk = ((bytes[index] & 0xff) >>> (avail - take)) & ((1 << take) - 1);
      value = (value << take) | chunk;
      bits += take;
      n -= take;
    }
    return value;
  }

  boolean readBit() {
    return read(1) != 0;
  }
}
