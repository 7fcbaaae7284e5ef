package org.netweather.sensor.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.netweather.runtime.recordlog.RecordFile;
import org.netweather.runtime.recordlog.SyncPolicy;

/**
 * The durable record of acknowledged sequence numbers: a {@link RecordFile} of ranges, appended to
 * and forced on every acknowledgement, replaced whole (atomically) when it compacts.
 *
 * <pre>
 *  record payload:
 *  0               8               16
 * +---------------+---------------+
 * |  from (u64)   |   to (u64)    |   one acknowledged range [from, to]
 * +---------------+---------------+
 * </pre>
 *
 * <p>A torn last record is cut off on load, which only means those entries are delivered again:
 * memory-hosts keep the first of duplicate (series, timestamp) points.
 */
final class AckLog implements AutoCloseable {

  /** Bytes one range takes on disk, frame included. */
  static final int RECORD = RecordFile.HEADER + 16;

  private final Path path;
  private RecordFile file;

  private AckLog(Path path, RecordFile file) {
    this.path = path;
    this.file = file;
  }

  /** Opens (or creates) the log in {@code dir}, loading its valid ranges into {@code into}. */
  static AckLog open(Path dir, SeqRanges into) throws IOException {
    Path path = dir.resolve("acks.log");
    Files.deleteIfExists(dir.resolve("acks.log.tmp")); // a replace cut short by a crash
    RecordFile file = RecordFile.open(path, SyncPolicy.ALWAYS);
    for (byte[] r : file.records()) {
      ByteBuffer b = ByteBuffer.wrap(r);
      if (r.length == 16) {
        long from = b.getLong();
        long to = b.getLong();
        if (from <= to) {
          into.add(from, to);
        }
      }
    }
    return new AckLog(path, file);
  }

  /** Appends ranges and forces them to disk. */
  void append(long[] from, long[] to, int n) throws IOException {
    List<byte[]> ranges = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ranges.add(range(from[i], to[i]));
    }
    file.append(ranges);
  }

  long records() {
    return file.count();
  }

  /** Replaces the file with exactly {@code ranges}, atomically. */
  void rewrite(SeqRanges ranges) throws IOException {
    List<byte[]> all = new ArrayList<>(ranges.rangeCount());
    ranges.forEach((f, t) -> all.add(range(f, t)));
    file.close();
    RecordFile.replace(path, all);
    file = RecordFile.open(path, SyncPolicy.ALWAYS);
  }

  private static byte[] range(long from, long to) {
    return ByteBuffer.allocate(16).putLong(from).putLong(to).array();
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
