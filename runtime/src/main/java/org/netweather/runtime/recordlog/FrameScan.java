package org.netweather.runtime.recordlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * What one file holds: runs of valid frames, separated by damaged bytes, and maybe an unreadable
 * tail. A frame that fails its checks is followed by a search for the next valid frame; if there is
 * one, the bytes between are damage in the middle (valid records follow), otherwise they are the
 * tail (a write cut short leaves only that).
 *
 * <pre>
 *  | run 0 ........ | damaged | run 1 ..... | damaged | run 2 ... | tail |
 *  0                                                                   size
 * </pre>
 *
 * <p>The search first tries where the bad frame's own length says the next one starts (a byte
 * flipped inside a payload or a checksum damages that one record only), then every later offset. A
 * frame found by the search is trusted as any other: its length is in range and its CRC32C matches,
 * which random bytes do once in four billion tries.
 */
final class FrameScan {
  /** Bytes scanned at a time while searching for the next valid frame. */
  private static final int WINDOW = 1 << 20;

  /**
   * Consecutive valid frames.
   *
   * @param start offset of the first
   * @param end offset just past the last
   * @param count how many
   * @param first the first one's payload (null if the run is empty)
   */
  record Run(long start, long end, long count, ByteBuffer first) {}

  final List<Run> runs;
  final long size;

  private FrameScan(List<Run> runs, long size) {
    this.runs = runs;
    this.size = size;
  }

  /** Scans the whole file; the first run starts at 0 and may be empty. */
  static FrameScan of(FileChannel ch, int maxRecordBytes, int bufferBytes) throws IOException {
    long size = ch.size();
    List<Run> runs = new ArrayList<>();
    long pos = 0;
    while (true) {
      FrameReader frames = new FrameReader(ch, pos, size, maxRecordBytes, bufferBytes);
      long count = 0;
      ByteBuffer first = null;
      while (frames.next()) {
        if (count == 0) {
          first = ByteBuffer.wrap(RecordFile.bytesOf(frames.payload())).asReadOnlyBuffer();
        }
        count++;
      }
      long end = frames.offset();
      runs.add(new Run(pos, end, count, first));
      if (end >= size) {
        break;
      }
      long next = nextFrame(ch, end, size, maxRecordBytes);
      if (next < 0) {
        break;
      }
      pos = next;
    }
    return new FrameScan(List.copyOf(runs), size);
  }

  /** Whether valid frames follow damaged bytes somewhere in the file. */
  boolean damagedInMiddle() {
    return runs.size() > 1;
  }

  /** Offset just past the last valid frame. */
  long validEnd() {
    return runs.get(runs.size() - 1).end();
  }

  /** Bytes after the last valid frame. */
  long tailBytes() {
    return size - validEnd();
  }

  /** Valid frames in the whole file. */
  long count() {
    long n = 0;
    for (Run r : runs) {
      n += r.count();
    }
    return n;
  }

  /** Bytes between the runs (not the tail). */
  long damagedBytes() {
    long n = 0;
    for (int i = 1; i < runs.size(); i++) {
      n += runs.get(i).start() - runs.get(i - 1).end();
    }
    return n;
  }

  /**
   * Whether the damage before run {@code i} is one frame whose length field is intact: then exactly
   * one record was lost there.
   */
  boolean oneFrameBefore(FileChannel ch, int i, int maxRecordBytes) throws IOException {
    long at = runs.get(i - 1).end();
    ByteBuffer len = ByteBuffer.allocate(4);
    if (ch.read(len, at) != 4) {
      return false;
    }
    int n = len.getInt(0);
    return n >= 0 && n <= maxRecordBytes && at + Frames.HEADER + n == runs.get(i).start();
  }

  /** The first offset after {@code from} where a valid frame starts, or -1. */
  private static long nextFrame(FileChannel ch, long from, long size, int maxRecordBytes)
      throws IOException {
    ByteBuffer header = ByteBuffer.allocate(Frames.HEADER);
    if (readFully(ch, header, from)) {
      int n = header.getInt(0);
      long skip = from + Frames.HEADER + n;
      if (n >= 0 && n <= maxRecordBytes && skip < size && validAt(ch, skip, size, maxRecordBytes)) {
        return skip;
      }
    }
    ByteBuffer win = ByteBuffer.allocate((int) Math.min(WINDOW, Math.max(size - from, 8)));
    long winStart = -1;
    for (long at = from + 1; at + Frames.HEADER <= size; at++) {
      if (winStart < 0 || at + Frames.HEADER > winStart + win.limit()) {
        win.clear();
        win.limit((int) Math.min(win.capacity(), size - at));
        readFully(ch, win, at);
        winStart = at;
      }
      int rel = (int) (at - winStart);
      int n = win.getInt(rel);
      if (n < 0 || n > maxRecordBytes || at + Frames.HEADER + n > size) {
        continue;
      }
      boolean valid;
      if (rel + Frames.HEADER + n <= win.limit()) {
        valid = Frames.crc(n, win.slice(rel + Frames.HEADER, n)) == win.getInt(rel + 4);
      } else {
        valid = validAt(ch, at, size, maxRecordBytes);
      }
      if (valid) {
        return at;
      }
    }
    return -1;
  }

  private static boolean validAt(FileChannel ch, long at, long size, int maxRecordBytes)
      throws IOException {
    return new FrameReader(ch, at, size, maxRecordBytes, Frames.HEADER).next();
  }

  private static boolean readFully(FileChannel ch, ByteBuffer buf, long at) throws IOException {
    long pos = at;
    while (buf.hasRemaining()) {
      int r = ch.read(buf, pos);
      if (r <= 0) {
        break;
      }
      pos += r;
    }
    boolean full = !buf.hasRemaining();
    buf.flip();
    return full;
  }
}
