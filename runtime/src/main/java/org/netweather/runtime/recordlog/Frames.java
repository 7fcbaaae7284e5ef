package org.netweather.runtime.recordlog;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The frame every record is written in.
 *
 * <pre>
 *  0         4         8
 * +---------+---------+-----------------------------+
 * | length  | crc32c  |  payload: length bytes      |
 * +---------+---------+-----------------------------+
 *
 * length  int32, big-endian, 0 &lt;= length &lt;= the log's maximum record size
 * crc32c  int32, big-endian, CRC32C over the four length bytes and then the payload
 * </pre>
 *
 * <p>The length is inside the checksum so that zeroed space (what some file systems leave after a
 * crash while extending a file) is never an empty record: CRC32C of four zero bytes is not zero. A
 * record is valid when its whole frame is present, its length is in range and its checksum matches;
 * reading a file stops at the first record that is not.
 */
final class Frames {
  static final int HEADER = 8;

  private Frames() {}

  static long frameBytes(List<byte[]> payloads) {
    long n = 0;
    for (byte[] p : payloads) {
      n += HEADER + p.length;
    }
    return n;
  }

  /** Writes one frame at the buffer's position. */
  static void put(ByteBuffer out, byte[] payload) {
    out.putInt(payload.length).putInt(crc(payload.length, ByteBuffer.wrap(payload)));
    out.put(payload);
  }

  static int crc(int length, ByteBuffer payload) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(4).putInt(0, length));
    crc.update(payload);
    return (int) crc.getValue();
  }
}
