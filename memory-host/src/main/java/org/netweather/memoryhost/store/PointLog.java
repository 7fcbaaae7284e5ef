package org.netweather.memoryhost.store;

import java.util.Arrays;

/**
 * One write group's new points as one log record: what makes an append durable. Heads then change
 * only in memory and reach the database at a checkpoint, so a group costs one small sequential
 * write whatever the number of series it touches, instead of a rewrite of every touched head.
 *
 * <pre>
 *   record   (series)*
 *   series   id:varint  n:varint  (dt:zigzag-varint value:8)^n
 * </pre>
 *
 * The first {@code dt} of a series is its point's time itself, later ones the difference from the
 * previous point (negative for a back-dated point). A site's points take 10 to 12 bytes here.
 *
 * <p>Not thread-safe: one writer encodes, and decoding uses no shared state.
 */
final class PointLog {
  private byte[] buf = new byte[4096];
  private int len;

  /** Starts a new record. */
  void clear() {
    len = 0;
  }

  boolean isEmpty() {
    return len == 0;
  }

  /** Adds the points of one series. */
  void add(long id, PointBuffer p) {
    ensure(20 + p.size * 18);
    putVarint(id);
    putVarint(p.size);
    long prev = 0;
    for (int i = 0; i < p.size; i++) {
      long t = p.times[i];
      long dt = t - prev;
      putVarint((dt << 1) ^ (dt >> 63));
      prev = t;
      long bits = Double.doubleToRawLongBits(p.values[i]);
      for (int b = 0; b < 8; b++) {
        buf[len++] = (byte) bits;
        bits >>>= 8;
      }
    }
  }

  /** The record so far, as a new array. */
  byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  int length() {
    return len;
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(len + more, buf.length * 2));
    }
  }

  private void putVarint(long v) {
    while ((v & ~0x7FL) != 0) {
      buf[len++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[len++] = (byte) v;
  }

  /** Receives a record's points in the order they were added. */
  interface Visitor {
    void point(long id, long time, double value);
  }

  /** Reads a record; throws IllegalArgumentException if it is cut short or malformed. */
  static void decode(byte[] record, Visitor visitor) {
    int[] at = {0};
    while (at[0] < record.length) {
      long id = varint(record, at);
      long n = varint(record, at);
      if (n < 0 || n > record.length) {
        throw new IllegalArgumentException("point log record: bad count " + n);
      }
      long prev = 0;
      for (long i = 0; i < n; i++) {
        long z = varint(record, at);
        long t = prev + ((z >>> 1) ^ -(z & 1));
        prev = t;
        if (at[0] + 8 > record.length) {
          throw new IllegalArgumentException("point log record cut short");
        }
        long bits = 0;
        for (int b = 7; b >= 0; b--) {
          bits = (bits << 8) | (record[at[0] + b] & 0xff);
        }
        at[0] += 8;
        visitor.point(id, t, Double.longBitsToDouble(bits));
      }
    }
  }

  private static long varint(byte[] b, int[] at) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at[0] >= b.length) {
        throw new IllegalArgumentException("point log record cut short");
      }
      byte x = b[at[0]++];
      v |= (long) (x & 0x7F) << shift;
      if (x >= 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("point log record: varint too long");
  }
}
