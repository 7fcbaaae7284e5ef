package org.netweather.sensor.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * One segment file of the spool: records of consecutive sequence numbers starting at the number
 * in its name ({@code seg-00000000000000000001.log}).
 *
 * <pre>
 * Record, all integers big-endian:
 *
 *  0       4       8               16              24              32    34
 * +-------+-------+---------------+---------------+---------------+-----+----------------+
 * |  len  | crc32c|      seq      | timestamp_ms  |  value (f64)  |slen | series (UTF-8) |
 * +-------+-------+---------------+---------------+---------------+-----+----------------+
 *                 |<-------------------------- body: len bytes ------------------------>|
 *
 * crc32c covers the body. A record is valid when len = 26 + slen, the crc matches and seq is one
 * more than the previous record's; the first invalid record ends the segment (a torn tail).
 * </pre>
 *
 * <p>Not thread-safe; the {@link Spool} serialises access.
 */
final class Segment {

  static final int HEADER = 8;
  static final int FIXED_BODY = 26;
  private static final int MAX_RECORD = HEADER + FIXED_BODY + 0xFFFF;

  /** Sees one record; returns false to stop the scan. */
  @FunctionalInterface
  interface Visitor {
    boolean visit(SpoolEntry entry, long offset);
  }

  final Path path;
  final long firstSeq;
  long nextSeq;
  long size;
  long truncatedBytes;
  /** Offset and sequence number of the oldest record that may still be unacknowledged. */
  long hintOffset;
  long hintSeq;
  private FileChannel appender;

  private Segment(Path path, long firstSeq) {
    this.path = path;
    this.firstSeq = firstSeq;
    this.nextSeq = firstSeq;
    this.hintSeq = firstSeq;
  }

  static Path pathFor(Path dir, long firstSeq) {
    return dir.resolve(String.format("seg-%020d.log", firstSeq));
  }

  /** Parses the first sequence number from a segment file name, or -1 if it is not one. */
  static long firstSeqOf(Path file) {
    String name = file.getFileName().toString();
    if (!name.startsWith("seg-") || !name.endsWith(".log") || name.length() != 28) {
      return -1;
    }
    try {
      return Long.parseLong(name.substring(4, 24));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Creates an empty segment file. */
  static Segment create(Path dir, long firstSeq) throws IOException {
    Segment s = new Segment(pathFor(dir, firstSeq), firstSeq);
    s.appender =
        FileChannel.open(s.path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return s;
  }

  /**
   * Opens an existing segment, keeping its valid prefix and truncating anything after it.
   *
   * @return the segment; {@link #truncatedBytes} tells how much was cut
   */
  static Segment recover(Path file, long firstSeq) throws IOException {
    Segment s = new Segment(file, firstSeq);
    long valid = s.scan(0, firstSeq, (e, off) -> true);
    s.nextSeq = firstSeq + s.scanned;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      long onDisk = ch.size();
      if (onDisk > valid) {
        ch.truncate(valid);
        ch.force(true);
      }
      s.truncatedBytes = onDisk - valid;
    }
    s.size = valid;
    return s;
  }

  long count() {
    return nextSeq - firstSeq;
  }

  long lastSeq() {
    return nextSeq - 1;
  }

  /** Appends records (not yet durable; see {@link #sync}). */
  void append(ByteBuffer records, long count) throws IOException {
    if (appender == null) {
      appender = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }
    while (records.hasRemaining()) {
      size += appender.write(records);
    }
    nextSeq += count;
  }

  /** Forces appended data to disk. */
  void sync() throws IOException {
    if (appender != null) {
      appender.force(false);
    }
  }

  /** Stops appending; reads still work. */
  void seal() throws IOException {
    if (appender != null) {
      appender.force(false);
      appender.close();
      appender = null;
    }
  }

  private long scanned;

  /**
   * Reads valid records in order from {@code fromOffset}, where record {@code fromSeq} starts,
   * until the visitor stops or the first invalid record; returns the offset after the last valid
   * record read.
   */
  long scan(long fromOffset, long fromSeq, Visitor visitor) throws IOException {
    long seq = fromSeq;
    long valid = fromOffset;
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
      long pos = fromOffset;
      buf.limit(0);
      CRC32C crc = new CRC32C();
      while (true) {
        if (buf.remaining() < HEADER) {
          pos = refill(ch, buf, pos);
          if (buf.remaining() < HEADER) {
            break;
          }
        }
        int len = buf.getInt(buf.position());
        if (len < FIXED_BODY || HEADER + len > MAX_RECORD) {
          break;
        }
        if (buf.remaining() < HEADER + len) {
          pos = refill(ch, buf, pos);
          if (buf.remaining() < HEADER + len) {
            break;
          }
        }
        int start = buf.position();
        int expectedCrc = buf.getInt(start + 4);
        ByteBuffer body = buf.duplicate().position(start + HEADER).limit(start + HEADER + len);
        crc.reset();
        crc.update(body.duplicate());
        if ((int) crc.getValue() != expectedCrc) {
          break;
        }
        long recSeq = body.getLong();
        long ts = body.getLong();
        double value = body.getDouble();
        int slen = Short.toUnsignedInt(body.getShort());
        if (recSeq != seq || slen != len - FIXED_BODY) {
          break;
        }
        byte[] name = new byte[slen];
        body.get(name);
        SpoolEntry e = new SpoolEntry(recSeq, new String(name, StandardCharsets.UTF_8), ts, value);
        if (!visitor.visit(e, valid)) {
          break;
        }
        buf.position(start + HEADER + len);
        valid += HEADER + len;
        seq++;
      }
    }
    scanned = seq - fromSeq;
    return valid;
  }

  private static long refill(FileChannel ch, ByteBuffer buf, long pos) throws IOException {
    buf.compact();
    int n;
    while (buf.hasRemaining() && (n = ch.read(buf, pos)) > 0) {
      pos += n;
    }
    buf.flip();
    return pos;
  }

  /** Encodes one record. */
  static void encode(ByteBuffer out, long seq, SpoolRecord r) {
    byte[] name = r.series().getBytes(StandardCharsets.UTF_8);
    int len = FIXED_BODY + name.length;
    int start = out.position();
    out.putInt(len).putInt(0).putLong(seq).putLong(r.timestampMs()).putDouble(r.value())
        .putShort((short) name.length).put(name);
    CRC32C crc = new CRC32C();
    crc.update(out.duplicate().position(start + HEADER).limit(start + HEADER + len));
    out.putInt(start + 4, (int) crc.getValue());
  }

  static int encodedSize(SpoolRecord r) {
    return HEADER + FIXED_BODY + r.series().getBytes(StandardCharsets.UTF_8).length;
  }
}
