package org.netweather.memoryhost.store;

import java.util.Arrays;

/** Appends bits, most significant first, to a growable byte array. Not thread-safe. */
final class BitWriter {
  private byte[] bytes;
  private long bits;

  BitWriter(int initialBytes) {
    bytes = new byte[Math.max(1, initialBytes)];
  }

  /** Continues writing after the first {@code bits} bits of {@code bytes} (taken, not copied). */
  BitWriter(byte[] bytes, long bits) {
    this.bytes = bytes;
    this.bits = bits;
  }

  /** Writes the low {@code n} bits of {@code value}, n in [0, 64]. */
  void write(long value, int n) {
    ensure(bits + n);
    while (n > 0) {
      int index = (int) (bits >>> 3);
      int free = 8 - (int) (bits & 7);
      int take = Math.min(free, n);
      int chunk = (int) ((value >>> (n - take)) & ((1 << take) - 1));
      bytes[index] |= (byte) (chunk << (free - take));
      bits += take;
      n -= take;
    }
  }

  void writeBit(boolean bit) {
    ensure(bits + 1);
    if (bit) {
      bytes[(int) (bits >>> 3)] |= (byte) (0x80 >>> (bits & 7));
    }
    bits++;
  }

  /** A copy with room for a few more points. */
  BitWriter copy() {
    return new BitWriter(
        Arrays.copyOf(bytes, Math.max(bytes.length, (int) ((bits + 7) >>> 3) + 32)), bits);
  }

  long bitLength() {
    return bits;
  }

  /** The backing array; bytes past {@code (bitLength() + 7) / 8} are zero. */
  byte[] array() {
    return bytes;
  }

  /** A copy holding exactly the written bits, rounded up to whole bytes. */
  byte[] toByteArray() {
    return Arrays.copyOf(bytes, (int) ((bits + 7) >>> 3));
  }

  private void ensure(long needBits) {
    int need = (int) ((needBits + 7) >>> 3);
    if (need > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(need, bytes.length + (bytes.length >> 1) + 8));
    }
  }
}
