package org.netweather.runtime.recordlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far a log reached when it was last acknowledged, kept in a small file beside it as a witness:
 * the next record number after every record that was durable when the file was written.
 *
 * <p>A log cut short (a truncated or emptied file, damage that ate its end) reads like the torn
 * tail of a write that was never acknowledged: both end in an incomplete record, or in none. The
 * records that went were acknowledged, though. The owner writes the next record number here after
 * each sync, so an open that finds fewer records than this file names knows acknowledged records
 * are missing, and how many.
 *
 * <pre>
 *   "NWAK"  next record:8  crc32c:4   (over the 12 bytes before it)
 * </pre>
 *
 * <p>The file is rewritten in place, not synced: it costs one small write to the page cache. A
 * power cut may leave it behind the log (a weaker witness), never ahead of it, since it is written
 * only after the log's sync. A file that does not read back is only a lost witness: logged at WARN,
 * and the owner rewrites it.
 *
 * <p>Not thread-safe: the log's writer calls {@link #record}.
 */
public final class Watermark implements AutoCloseable {
  private static final int MAGIC = 0x4e57414b;
  private static final int SIZE = 16;
  private static final Logger log = LoggerFactory.getLogger(Watermark.class);

  private final Path file;
  private final FileChannel channel;
  private final ByteBuffer buf = ByteBuffer.allocate(SIZE);
  private boolean failed;

  private Watermark(Path file) throws IOException {
    this.file = file;
    this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
  }

  /** Opens {@code file} for writing, creating it if needed. */
  public static Watermark open(Path file) throws IOException {
    return new Watermark(file);
  }

  /** The next record number {@code file} names, or empty if there is none or it does not read. */
  public static OptionalLong read(Path file) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return OptionalLong.empty();
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, Math.min(bytes.length, SIZE - 4));
    if (bytes.length != SIZE
        || b.getInt(0) != MAGIC
        || b.getInt(SIZE - 4) != (int) crc.getValue()) {
      log.warn(
          "{} is damaged ({} bytes that do not read back); it only witnesses how far a log"
              + " reached, so the open goes on without that check and rewrites it",
          file,
          bytes.length);
      return OptionalLong.empty();
    }
    return OptionalLong.of(b.getLong(4));
  }

  /** Records that every record numbered below {@code next} is durable. */
  public void record(long next) {
    buf.clear();
    buf.putInt(MAGIC).putLong(next);
    CRC32C crc = new CRC32C();
    crc.update(buf.array(), 0, SIZE - 4);
    buf.putInt((int) crc.getValue()).flip();
    try {
      while (buf.hasRemaining()) {
        channel.write(buf, buf.position());
      }
      failed = false;
    } catch (IOException e) {
      // The records are durable already; only the witness lags, so this must not fail them.
      if (!failed) {
        failed = true;
        log.warn("cannot update {}: {}", file, e.getMessage());
      }
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
