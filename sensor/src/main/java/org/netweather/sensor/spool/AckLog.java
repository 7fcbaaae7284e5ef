package org.netweather.sensor.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * The durable record of acknowledged sequence numbers: an append-only file of ranges, rewritten
 * whole (through a temporary file and an atomic rename) when it compacts.
 *
 * <pre>
 *  0               8               16      20
 * +---------------+---------------+-------+
 * |  from (u64)   |   to (u64)    | crc32c|   one acknowledged range [from, to]
 * +---------------+---------------+-------+
 * </pre>
 *
 * <p>A torn last record fails its crc and is dropped on load, which only means those entries are
 * delivered again: memory-hosts keep the first of duplicate (series, timestamp) points.
 */
final class AckLog implements AutoCloseable {

  static final int RECORD = 20;

  private final Path path;
  private FileChannel channel;
  private long records;

  private AckLog(Path path) {
    this.path = path;
  }

  /** Opens (or creates) the log in {@code dir}, loading its valid ranges into {@code into}. */
  static AckLog open(Path dir, SeqRanges into) throws IOException {
    AckLog log = new AckLog(dir.resolve("acks.log"));
    Files.deleteIfExists(dir.resolve("acks.tmp"));
    long valid = 0;
    if (Files.exists(log.path)) {
      ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(log.path));
      while (all.remaining() >= RECORD) {
        long from = all.getLong();
        long to = all.getLong();
        int crc = all.getInt();
        if (crc != crcOf(from, to) || from > to) {
          break;
        }
        into.add(from, to);
        valid += RECORD;
        log.records++;
      }
    }
    log.channel =
        FileChannel.open(log.path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    log.channel.truncate(valid);
    log.channel.position(valid);
    return log;
  }

  /** Appends ranges and forces them to disk. */
  void append(long[] from, long[] to, int n) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(n * RECORD);
    for (int i = 0; i < n; i++) {
      buf.putLong(from[i]).putLong(to[i]).putInt(crcOf(from[i], to[i]));
    }
    buf.flip();
    while (buf.hasRemaining()) {
      channel.write(buf);
    }
    channel.force(false);
    records += n;
  }

  long records() {
    return records;
  }

  /** Replaces the file with exactly {@code ranges}, atomically. */
  void rewrite(SeqRanges ranges) throws IOException {
    Path tmp = path.resolveSibling("acks.tmp");
    ByteBuffer buf = ByteBuffer.allocate(ranges.rangeCount() * RECORD);
    ranges.forEach((f, t) -> buf.putLong(f).putLong(t).putInt(crcOf(f, t)));
    buf.flip();
    try (FileChannel out =
        FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      while (buf.hasRemaining()) {
        out.write(buf);
      }
      out.force(true);
    }
    channel.close();
    Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Spool.syncDirectory(path.getParent());
    channel = FileChannel.open(path, StandardOpenOption.WRITE);
    channel.position(channel.size());
    records = ranges.rangeCount();
  }

  private static int crcOf(long from, long to) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(16).putLong(from).putLong(to).flip());
    return (int) crc.getValue();
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
