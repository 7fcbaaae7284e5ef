package org.netweather.runtime.recordlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One file of framed records (format in {@link Frames}): appended to, read whole, or replaced whole
 * atomically. Opening a file recovers it. A torn tail (bytes after the last valid record with
 * nothing valid after them: a write cut short by a crash) is cut off, so appends continue right
 * after the last good record. Damage in the middle (unreadable bytes with valid records after them)
 * is skipped: the file as found is copied to {@code FILE.damaged}, the file is rewritten with every
 * valid record, and what was skipped is logged at WARN and reported by {@link #damage}.
 *
 * <p>A {@link RecordLog} is made of these; on its own it suits small state rewritten whole from
 * time to time (a snapshot, a list of acknowledged ranges).
 *
 * <p>Not thread-safe: the owner serialises calls.
 */
public final class RecordFile implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RecordFile.class);
  static final int DEFAULT_MAX_RECORD = 16 << 20;
  static final int DEFAULT_READ_BUFFER = 64 << 10;

  /** Bytes a record takes on disk beyond its payload. */
  public static final int HEADER = Frames.HEADER;

  private final Path path;
  private final FileChannel channel;
  private final SyncPolicy sync;
  private final int maxRecordBytes;
  private final int readBufferBytes;
  private long size;
  private long count;
  private final long truncatedBytes;
  private final List<Damage> damage;

  private RecordFile(
      Path path,
      FileChannel channel,
      SyncPolicy sync,
      int maxRecordBytes,
      int readBufferBytes,
      long size,
      long count,
      long truncatedBytes,
      List<Damage> damage) {
    this.path = path;
    this.channel = channel;
    this.sync = sync;
    this.maxRecordBytes = maxRecordBytes;
    this.readBufferBytes = readBufferBytes;
    this.size = size;
    this.count = count;
    this.truncatedBytes = truncatedBytes;
    this.damage = damage;
  }

  /**
   * Opens {@code file}, creating it if absent, cutting off a torn tail and skipping damage in the
   * middle ({@link #damage}).
   */
  public static RecordFile open(Path file, SyncPolicy sync) throws IOException {
    return open(file, sync, DEFAULT_MAX_RECORD, DEFAULT_READ_BUFFER);
  }

  static RecordFile open(Path file, SyncPolicy sync, int maxRecordBytes, int readBufferBytes)
      throws IOException {
    FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      List<Damage> damage = List.of();
      FrameScan scan = FrameScan.of(ch, maxRecordBytes, readBufferBytes);
      if (scan.damagedInMiddle()) {
        damage = skipDamage(file, ch, scan, maxRecordBytes);
        ch.close();
        ch =
            FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      }
      long valid = scan.validEnd() - scan.damagedBytes();
      long count = scan.count();
      long onDisk = ch.size();
      if (onDisk > valid) {
        log.warn(
            "{}: torn tail (a write cut short): cut off {} bytes after the last whole record",
            file,
            onDisk - valid);
        ch.truncate(valid);
        if (sync != SyncPolicy.NEVER) {
          ch.force(true);
        }
      }
      return new RecordFile(
          file, ch, sync, maxRecordBytes, readBufferBytes, valid, count, onDisk - valid, damage);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /**
   * Keeps the file as found aside, then replaces it with its valid records only (the tail is left
   * for the caller to cut), and reports what was skipped.
   */
  private static List<Damage> skipDamage(
      Path file, FileChannel ch, FrameScan scan, int maxRecordBytes) throws IOException {
    Path aside = Repair.keepAside(file);
    List<Damage> damage = new ArrayList<>();
    long before = 0;
    for (int i = 1; i < scan.runs.size(); i++) {
      FrameScan.Run prev = scan.runs.get(i - 1);
      before += prev.count();
      boolean one = scan.oneFrameBefore(ch, i, maxRecordBytes);
      damage.add(
          new Damage(
              file, aside, prev.end(), scan.runs.get(i).start() - prev.end(), before, 1, one));
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".repair");
    Repair.writeRuns(ch, scan.runs, tmp);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    syncDirectory(file.toAbsolutePath().getParent());
    long[] t = Damage.totals(damage);
    log.warn(
        "{}: damaged in the middle: skipped {} unreadable bytes in {} places ({}{} records lost),"
            + " kept the {} whole records around them; the file as found is kept in {}",
        file,
        t[1],
        damage.size(),
        damage.stream().allMatch(Damage::exact) ? "" : "at least ",
        t[0],
        scan.count(),
        aside);
    return List.copyOf(damage);
  }

  /** Appends one record; durable on return under {@link SyncPolicy#ALWAYS}. */
  public void append(byte[] payload) throws IOException {
    append(List.of(payload));
  }

  /** Appends records with one write (and, under {@link SyncPolicy#ALWAYS}, one sync). */
  public void append(List<byte[]> payloads) throws IOException {
    if (payloads.isEmpty()) {
      return;
    }
    long bytes = Frames.frameBytes(payloads);
    if (bytes > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("batch of " + bytes + " bytes is too large");
    }
    ByteBuffer buf = ByteBuffer.allocate((int) bytes);
    for (byte[] p : payloads) {
      if (p.length > maxRecordBytes) {
        throw new IllegalArgumentException(
            "record of " + p.length + " bytes exceeds the maximum of " + maxRecordBytes);
      }
      Frames.put(buf, p);
    }
    buf.flip();
    long at = size;
    try {
      while (buf.hasRemaining()) {
        at += channel.write(buf, at);
      }
    } catch (IOException e) {
      // Leave no half-written frame for the next append to land behind.
      channel.truncate(size);
      throw e;
    }
    size = at;
    count += payloads.size();
    if (sync == SyncPolicy.ALWAYS) {
      channel.force(false);
    }
  }

  /** Forces everything appended so far to disk (a no-op under {@link SyncPolicy#NEVER}). */
  public void sync() throws IOException {
    if (sync != SyncPolicy.NEVER) {
      channel.force(false);
    }
  }

  /** Every record, in order. */
  public List<byte[]> records() throws IOException {
    List<byte[]> out = new ArrayList<>();
    FrameReader frames = reader(0, size);
    while (frames.next()) {
      out.add(bytesOf(frames.payload()));
    }
    return out;
  }

  FrameReader reader(long from, long limit) {
    return new FrameReader(channel, from, limit, maxRecordBytes, readBufferBytes);
  }

  /** Bytes of whole records in the file. */
  public long size() {
    return size;
  }

  /** Number of records in the file. */
  public long count() {
    return count;
  }

  /** Bytes cut off the end when the file was opened. */
  public long truncatedBytes() {
    return truncatedBytes;
  }

  /**
   * Damage in the middle of the file found when it was opened: skipped, the records after it kept,
   * the file as found copied beside it ({@link Damage#keptIn}). Empty for a sound file.
   */
  public List<Damage> damage() {
    return damage;
  }

  public Path path() {
    return path;
  }

  @Override
  public void close() throws IOException {
    try {
      if (sync != SyncPolicy.NEVER && channel.isOpen()) {
        channel.force(false);
      }
    } finally {
      channel.close();
    }
  }

  /**
   * Replaces {@code file} with exactly {@code payloads}: written to a temporary sibling, forced,
   * renamed over it and the directory forced, so a crash leaves either the old or the new file.
   */
  public static void replace(Path file, List<byte[]> payloads) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp); // left by a crash mid-replace
    try (RecordFile out = open(tmp, SyncPolicy.EXPLICIT)) {
      out.append(payloads);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    syncDirectory(file.toAbsolutePath().getParent());
  }

  /**
   * Reads a file that is only ever written whole ({@link #replace}): every record, or an error if
   * anything in it is not a whole valid record. A missing file reads as empty.
   */
  public static List<byte[]> readWhole(Path file) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    List<byte[]> out = new ArrayList<>();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      FrameReader frames =
          new FrameReader(ch, 0, Long.MAX_VALUE, DEFAULT_MAX_RECORD, DEFAULT_READ_BUFFER);
      while (frames.next()) {
        out.add(bytesOf(frames.payload()));
      }
      if (frames.offset() != ch.size()) {
        throw new IOException(
            file
                + " is damaged at byte "
                + frames.offset()
                + " (or was written by an older NetWeather)");
      }
    }
    return out;
  }

  /** Makes a directory's entries (new, renamed, deleted files) durable. */
  public static void syncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some platforms cannot open a directory; there, rename and delete are as durable as it gets.
      log.debug("cannot sync directory {}", dir, e);
    }
  }

  static byte[] bytesOf(ByteBuffer payload) {
    byte[] b = new byte[payload.remaining()];
    payload.duplicate().get(b);
    return b;
  }
}
