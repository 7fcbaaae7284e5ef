package org.netweather.memoryhost.store;

/**
 * Keys of the point and archive column families: a series id, then a time, both big-endian, so a
 * series' entries are contiguous and ordered by time. Ids are never reused, so nothing of a deleted
 * series can be mistaken for a later one.
 */
final class Keys {
  private Keys() {}

  static byte[] of(long id, long time) {
    byte[] k = new byte[16];
    put(k, 0, id);
    put(k, 8, time);
    return k;
  }

  static byte[] of(long id) {
    byte[] k = new byte[8];
    put(k, 0, id);
    return k;
  }

  static long id(byte[] key) {
    return get(key, 0);
  }

  static long time(byte[] key) {
    return get(key, 8);
  }

  static void put(byte[] b, int at, long v) {
    for (int i = 7; i >= 0; i--) {
      b[at + i] = (byte) v;
      v >>>= 8;
    }
  }

  static long get(byte[] b, int at) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[at + i] & 0xff);
    }
    return v;
  }

  static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }

  static int getInt(byte[] b, int at) {
    return ((b[at] & 0xff) << 24)
        | ((b[at + 1] & 0xff) << 16)
        | ((b[at + 2] & 0xff) << 8)
        | (b[at + 3] & 0xff);
  }
}
