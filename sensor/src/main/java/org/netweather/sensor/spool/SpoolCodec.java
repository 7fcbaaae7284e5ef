package org.netweather.sensor.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A spooled measurement as the payload of one record in the spool's {@code RecordLog} (which frames
 * and checksums it).
 *
 * <pre>
 *  0               8               16              24
 * +---------------+---------------+---------------+----------------+
 * |      seq      | timestamp_ms  |  value (f64)  | series (UTF-8) |
 * +---------------+---------------+---------------+----------------+
 * </pre>
 *
 * <p>The sequence number is the record's number in the log; it is written too so that a record says
 * which measurement it is on its own, and is checked against its place when read.
 */
final class SpoolCodec {
  static final int FIXED = 24;

  private SpoolCodec() {}

  static byte[] encode(long seq, SpoolRecord r) {
    byte[] name = r.series().getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(FIXED + name.length)
        .putLong(seq)
        .putLong(r.timestampMs())
        .putDouble(r.value())
        .put(name)
        .array();
  }

  /** The sequence number a payload says it holds; for recovery across damage. */
  static long numberOf(ByteBuffer payload) {
    if (payload.remaining() < FIXED) {
      throw new IllegalArgumentException("spool record of " + payload.remaining() + " bytes");
    }
    return payload.getLong(payload.position());
  }

  static SpoolEntry decode(long number, ByteBuffer payload) throws IOException {
    if (payload.remaining() < FIXED) {
      throw new IOException("spool record " + number + " is " + payload.remaining() + " bytes");
    }
    ByteBuffer b = payload.duplicate();
    long seq = b.getLong();
    if (seq != number) {
      throw new IOException("spool record " + number + " holds sequence number " + seq);
    }
    long ts = b.getLong();
    double value = b.getDouble();
    byte[] name = new byte[b.remaining()];
    b.get(name);
    return new SpoolEntry(seq, new String(name, StandardCharsets.UTF_8), ts, value);
  }
}
