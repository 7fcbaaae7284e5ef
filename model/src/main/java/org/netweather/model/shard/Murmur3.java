package org.netweather.model.shard;

/**
 * MurmurHash3's 32-bit x86 variant (Austin Appleby's public-domain algorithm), written out here so
 * that the model needs no hashing library and every implementation in any language agrees on a
 * shard. Known answers are checked in the tests.
 */
final class Murmur3 {
  private static final int C1 = 0xcc9e2d51;
  private static final int C2 = 0x1b873593;

  private Murmur3() {}

  static int hash32(byte[] data, int seed) {
    int h = seed;
    int blocks = data.length / 4;
    for (int i = 0; i < blocks; i++) {
      int at = i * 4;
      int k =
          (data[at] & 0xff)
              | (data[at + 1] & 0xff) << 8
              | (data[at + 2] & 0xff) << 16
              | (data[at + 3] & 0xff) << 24;
      h ^= mixK(k);
      h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
    }
    int tail = blocks * 4;
    int rest = data.length & 3;
    if (rest > 0) {
      int k = 0;
      for (int i = rest - 1; i >= 0; i--) {
        k = k << 8 | (data[tail + i] & 0xff);
      }
      h ^= mixK(k);
    }
    h ^= data.length;
    return fmix(h);
  }

  private static int mixK(int k) {
    k *= C1;
    k = Integer.rotateLeft(k, 15);
    return k * C2;
  }

  private static int fmix(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
