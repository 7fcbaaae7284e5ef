package org.netweather.runtime.recordlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads valid frames in order from one file, between a start offset and a limit, stopping at the
 * first frame that is incomplete or fails its checks (see {@link Frames}). The buffer starts small
 * and grows for a record larger than itself.
 */
final class FrameReader {
  private final FileChannel channel;
  private final long limit;
  private final int maxRecordBytes;
  private ByteBuffer buf;
  private long offset;
  private ByteBuffer payload;

  /**
   * @param offset where a frame starts
   * @param limit no byte at or past it is read ({@code Long.MAX_VALUE}: the end of the file)
   */
  FrameReader(FileChannel channel, long offset, long limit, int maxRecordBytes, int bufferBytes) {
    this.channel = channel;
    this.offset = offset;
    this.limit = limit;
    this.maxRecordBytes = maxRecordBytes;
    this.buf = ByteBuffer.allocate(Math.max(Frames.HEADER, bufferBytes)).limit(0);
  }

  /** Advances to the next valid record; false at the end or at the first bad frame. */
  boolean next() throws IOException {
    payload = null;
    if (!fill(Frames.HEADER)) {
      return false;
    }
    int start = buf.position();
    int length = buf.getInt(start);
    if (length < 0 || length > maxRecordBytes || !fill(Frames.HEADER + length)) {
      return false;
    }
    start = buf.position(); // fill may have moved the bytes
    ByteBuffer body = buf.slice(start + Frames.HEADER, length);
    if (Frames.crc(length, body.duplicate()) != buf.getInt(start + 4)) {
      return false;
    }
    payload = body.asReadOnlyBuffer();
    buf.position(start + Frames.HEADER + length);
    offset += Frames.HEADER + length;
    return true;
  }

  /** The current record's payload; valid until the next call to {@link #next}. */
  ByteBuffer payload() {
    return payload;
  }

  /** Offset just past the last valid record read (where the next frame starts). */
  long offset() {
    return offset;
  }

  /** Makes at least {@code n} bytes from {@link #offset} available, if the file has them. */
  private boolean fill(int n) throws IOException {
    if (buf.remaining() >= n) {
      return true;
    }
    if (limit - offset < n) {
      return false;
    }
    if (buf.capacity() < n) {
      ByteBuffer bigger = ByteBuffer.allocate(Math.max(n, buf.capacity() * 2));
      bigger.put(buf);
      buf = bigger;
    } else {
      buf.compact();
    }
    long readAt = offset + buf.position();
    buf.limit((int) Math.min(buf.capacity(), buf.position() + (limit - readAt)));
    while (buf.position() < n) {
      int r = channel.read(buf, readAt);
      if (r <= 0) {
        break;
      }
      readAt += r;
    }
    buf.flip();
    return buf.remaining() >= n;
  }
}
