package org.netweather.memoryhost.store;

/** Reads back the points written by a {@link GorillaEncoder}, in the order they were added. */
public final class GorillaDecoder {
  private final BitReader in;
  private final int count;
  private int read;
  private long time;
  private long delta;
  private long bits;
  private int leading;
  private int trailing;

  public GorillaDecoder(byte[] encoded, int offset, long bitLength, int count) {
    this.in = new BitReader(encoded, offset, bitLength);
    this.count = count;
  }

  /** Whether another point follows. */
  public boolean hasNext() {
    return read < count;
  }

  /** Advances to the next point; read it with {@link #time()} and {@link #value()}. */
  public void next() {
    if (read == 0) {
      time = in.read(64);
      bits = in.read(64);
    } else {
      delta += readDod();
      time += delta;
      readValue();
    }
    read++;
  }

  public long time() {
    return time;
  }

  public double value() {
    return Double.longBitsToDouble(bits);
  }

  private long readDod() {
    if (!in.readBit()) {
      return 0;
    }
    if (!in.readBit()) {
      return signed(in.read(7), 7);
    }
    if (!in.readBit()) {
      return signed(in.read(9), 9);
    }
    if (!in.readBit()) {
      return signed(in.read(12), 12);
    }
    if (!in.readBit()) {
      return signed(in.read(32), 32);
    }
    return in.read(64);
  }

  /**
   * Undoes the encoder's truncation to n bits: values in (-2^(n-1), 2^(n-1)] come back whole; the
   * encoder's buckets are one wider on the positive side, which this maps correctly because the
   * bucket's bit pattern of +2^(n-1) equals that of -2^(n-1), never used by the encoder.
   */
  private static long signed(long raw, int n) {
    long half = 1L << (n - 1);
    return raw > half ? raw - (1L << n) : raw;
  }

  private void readValue() {
    if (!in.readBit()) {
      return;
    }
    if (!in.readBit()) {
      bits ^= in.read(64 - leading - trailing) << trailing;
    } else {
      leading = (int) in.read(5);
      int length = (int) in.read(6);
      if (length == 0) {
        length = 64;
      }
      trailing = 64 - leading - length;
      bits ^= in.read(length) << trailing;
    }
  }
}
