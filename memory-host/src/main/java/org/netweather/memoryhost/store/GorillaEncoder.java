package org.netweather.memoryhost.store;

/**
 * Compresses a run of (timestamp, value) points the way Gorilla does: timestamps as a delta of
 * deltas in variable-width buckets, values as the XOR with the previous value keeping only its
 * meaningful bits.
 *
 * <p>Pelkonen, Franklin, Teller, Cavallaro, Huang, Meza, Veeraraghavan: "Gorilla: A Fast, Scalable,
 * In-Memory Time Series Database", PVLDB 8(12), 2015, section 4.1. Two changes for NetWeather:
 * timestamps are milliseconds, so the buckets are wider than the paper's (which counts seconds),
 * and points may arrive out of order (a back-dated measurement), so a delta may be negative and an
 * escape bucket takes a full 64 bits.
 *
 * <pre>
 *   first point   timestamp:64  value:64
 *   timestamp     dod = (t - t1) - (t1 - t2)
 *                 '0'                      dod == 0
 *                 '10'    dod:7            dod in [-63, 64]
 *                 '110'   dod:9            dod in [-255, 256]
 *                 '1110'  dod:12           dod in [-2047, 2048]
 *                 '11110' dod:32           dod fits an int
 *                 '11111' dod:64
 *   value         x = bits(v) ^ bits(v1)
 *                 '0'                      x == 0
 *                 '10'    meaningful bits  inside the previous window of leading/trailing zeros
 *                 '11'    leading:5 length:6 meaningful bits   (length 64 written as 0)
 * </pre>
 *
 * <p>Not thread-safe.
 */
public final class GorillaEncoder {
  private final BitWriter out;
  private int count;
  private long prevTime;
  private long prevDelta;
  private long prevBits;
  private int prevLeading = -1;
  private int prevTrailing;
  private long minTime = Long.MAX_VALUE;
  private long maxTime = Long.MIN_VALUE;
  // The value of the newest point, kept so that a summary never decodes the head.
  private double valueAtMax = Double.NaN;

  public GorillaEncoder() {
    this(32);
  }

  GorillaEncoder(int initialBytes) {
    out = new BitWriter(initialBytes);
  }

  /** Appends one point. */
  public void add(long time, double value) {
    long bits = Double.doubleToRawLongBits(value);
    if (count == 0) {
      out.write(time, 64);
      out.write(bits, 64);
    } else {
      long delta = time - prevTime;
      writeTime(delta - prevDelta);
      writeValue(bits ^ prevBits);
      prevDelta = delta;
    }
    prevTime = time;
    prevBits = bits;
    count++;
    minTime = Math.min(minTime, time);
    if (time >= maxTime) {
      maxTime = time;
      valueAtMax = value;
    }
  }

  private void writeTime(long dod) {
    if (dod == 0) {
      out.writeBit(false);
    } else if (dod >= -63 && dod <= 64) {
      out.write(0b10, 2);
      out.write(dod, 7);
    } else if (dod >= -255 && dod <= 256) {
      out.write(0b110, 3);
      out.write(dod, 9);
    } else if (dod >= -2047 && dod <= 2048) {
      out.write(0b1110, 4);
      out.write(dod, 12);
    } else if (dod > Integer.MIN_VALUE && dod <= Integer.MAX_VALUE) {
      out.write(0b11110, 5);
      out.write(dod, 32);
    } else {
      out.write(0b11111, 5);
      out.write(dod, 64);
    }
  }

  private void writeValue(long x) {
    if (x == 0) {
      out.writeBit(false);
      return;
    }
    int leading = Math.min(31, Long.numberOfLeadingZeros(x));
    int trailing = Long.numberOfTrailingZeros(x);
    if (prevLeading >= 0 && leading >= prevLeading && trailing >= prevTrailing) {
      out.write(0b10, 2);
      out.write(x >>> prevTrailing, 64 - prevLeading - prevTrailing);
    } else {
      int length = 64 - leading - trailing;
      out.write(0b11, 2);
      out.write(leading, 5);
      out.write(length & 63, 6);
      out.write(x >>> trailing, length);
      prevLeading = leading;
      prevTrailing = trailing;
    }
  }

  public int count() {
    return count;
  }

  public long minTime() {
    return minTime;
  }

  public long maxTime() {
    return maxTime;
  }

  /** The value of the point at {@link #maxTime()}, NaN if there is none. */
  public double valueAtMax() {
    return valueAtMax;
  }

  /** Bytes the encoded points take, rounded up. */
  public int encodedBytes() {
    return (int) ((out.bitLength() + 7) >>> 3);
  }

  /** An independent copy, to extend without changing this one. */
  public GorillaEncoder copy() {
    GorillaEncoder c = new GorillaEncoder(out.copy());
    c.count = count;
    c.prevTime = prevTime;
    c.prevDelta = prevDelta;
    c.prevBits = prevBits;
    c.prevLeading = prevLeading;
    c.prevTrailing = prevTrailing;
    c.minTime = minTime;
    c.maxTime = maxTime;
    c.valueAtMax = valueAtMax;
    return c;
  }

  private GorillaEncoder(BitWriter out) {
    this.out = out;
  }

  /** Bytes of {@link #state()}. */
  static final int STATE_BYTES = 4 + 8 * 5 + 4 + 4 + 8;

  /**
   * The encoder as bytes: its state, then the encoded points, so that {@link #resume} continues
   * exactly where it stopped without decoding anything.
   *
   * <pre>
   *   count:4 prevTime:8 prevDelta:8 prevBits:8 minTime:8 maxTime:8 leading:4 trailing:4
   *   bitLength:8 bits
   * </pre>
   */
  public byte[] state() {
    return state(0);
  }

  /**
   * As {@link #state()}, after {@code prefix} bytes left for the caller: a checkpoint stores
   * hundreds of thousands of heads, so each is built in the one array it is stored from.
   */
  byte[] state(int prefix) {
    int n = (int) ((out.bitLength() + 7) >>> 3);
    byte[] b = new byte[prefix + STATE_BYTES + n];
    int at = prefix;
    Keys.putInt(b, at, count);
    Keys.put(b, at + 4, prevTime);
    Keys.put(b, at + 12, prevDelta);
    Keys.put(b, at + 20, prevBits);
    Keys.put(b, at + 28, minTime);
    Keys.put(b, at + 36, maxTime);
    Keys.putInt(b, at + 44, prevLeading);
    Keys.putInt(b, at + 48, prevTrailing);
    Keys.put(b, at + 52, out.bitLength());
    System.arraycopy(out.array(), 0, b, at + STATE_BYTES, n);
    return b;
  }

  /** An encoder continuing from {@link #state()} bytes. */
  public static GorillaEncoder resume(byte[] state) {
    return resume(state, 0, true, Double.NaN);
  }

  /**
   * An encoder continuing from {@link #state(int)} bytes that begin at {@code at}. The value at the
   * newest time is not part of the state: given ({@code find} false), or found by decoding.
   */
  static GorillaEncoder resume(byte[] b, int at, boolean find, double valueAtMax) {
    int from = at + STATE_BYTES;
    // Stored heads come from disk: check every length before sizing anything by it.
    if (b.length < from) {
      throw new IllegalArgumentException(
          "head state of " + (b.length - at) + " bytes is shorter than " + STATE_BYTES);
    }
    long bits = Keys.get(b, at + 52);
    int count = Keys.getInt(b, at);
    int leading = Keys.getInt(b, at + 44);
    int trailing = Keys.getInt(b, at + 48);
    if (bits < 0
        || bits > (long) (b.length - from) * 8
        || count < 0
        || (count == 0) != (bits == 0)
        || leading < -1
        || leading > 63
        || trailing < 0
        || trailing > 63
        || leading + trailing > 64) {
      throw new IllegalArgumentException(
          "head state is malformed: "
              + count
              + " points in "
              + bits
              + " bits of "
              + (b.length - from)
              + " bytes, leading "
              + leading
              + ", trailing "
              + trailing);
    }
    byte[] bytes = java.util.Arrays.copyOfRange(b, from, from + (int) ((bits + 7) >>> 3) + 16);
    GorillaEncoder e = new GorillaEncoder(new BitWriter(bytes, bits));
    e.count = count;
    e.prevTime = Keys.get(b, at + 4);
    e.prevDelta = Keys.get(b, at + 12);
    e.prevBits = Keys.get(b, at + 20);
    e.minTime = Keys.get(b, at + 28);
    e.maxTime = Keys.get(b, at + 36);
    e.prevLeading = leading;
    e.prevTrailing = trailing;
    if (!find) {
      e.valueAtMax = valueAtMax;
      return e;
    }
    GorillaDecoder d = e.decoder();
    while (d.hasNext()) {
      d.next();
      if (d.time() == e.maxTime) {
        e.valueAtMax = d.value();
      }
    }
    return e;
  }

  /** The encoded points so far, for {@link GorillaDecoder}. */
  public byte[] toByteArray() {
    return out.toByteArray();
  }

  /** The live buffer: bits below {@link #bitLength()} never change, whatever is added later. */
  byte[] bytes() {
    return out.array();
  }

  long bitLength() {
    return out.bitLength();
  }

  /** A decoder over the points written so far (reads the live buffer; do not add meanwhile). */
  public GorillaDecoder decoder() {
    return new GorillaDecoder(out.array(), 0, out.bitLength(), count);
  }
}
