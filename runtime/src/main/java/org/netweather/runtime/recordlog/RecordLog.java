package org.netweather.runtime.recordlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A durable, append-only log of numbered records kept as a directory of segment files.
 *
 * <pre>{@code
 * try (RecordLog log = RecordLog.open(dir, RecordLog.Options.named("journal-"))) {
 *   long n = log.append(change);          // durable on return under SyncPolicy.ALWAYS
 *   RecordReader r = log.read(log.firstNumber());
 *   while (r.next()) { apply(r.number(), r.payload()); }
 *   long mark = log.roll();                // later: state up to mark saved elsewhere
 *   log.dropBefore(mark);                  // whole segments below it are deleted
 * }
 * }</pre>
 *
 * <pre>
 * Directory:  PREFIX00000000000000000001.log   records 1 .. 41
 *             PREFIX00000000000000000042.log   records 42 .. (active: appends go here)
 *
 * Segment file = frame frame frame ...   (no file header; frame format below)
 *
 *  0         4         8
 * +---------+---------+-----------------------------+
 * | length  | crc32c  |  payload: length bytes      |
 * +---------+---------+-----------------------------+
 *  length: int32 big-endian; crc32c: over the 4 length bytes, then the payload
 * </pre>
 *
 * <p>Numbers. Records are numbered from 1 in order of appending; a segment file is named for the
 * number of its first record, and the records in it follow consecutively, so a record's number is
 * never written down. Numbers are never reused, also after old segments are dropped.
 *
 * <p>Rotation. An append that would take a non-empty active segment past {@code segmentBytes} first
 * starts a new segment; {@link #roll} starts one on demand. {@link #dropBefore} deletes whole
 * segments every record of which is below a number, once the owner has no more use for them
 * (acknowledged, or folded into a snapshot).
 *
 * <p>Recovery. {@link #open} tells a torn tail from damage. Bytes after the last valid record of
 * the last segment, with nothing valid after them, are a write cut short by a crash: they are cut
 * off. Unreadable bytes with valid records after them (or at the end of a segment that is not the
 * last) are damage: the segment as found is copied to {@code SEGMENT.damaged}, the damaged bytes
 * are skipped, every valid record is kept, and each skip is logged at WARN and listed by {@link
 * #damage} (see {@link SegmentRepair}). Records lost to damage leave a gap in the numbers when the
 * records carry their own number ({@link Options#withNumbering}) or the damage ends a segment that
 * is not the last.
 *
 * <p>Cut short. A log that syncs keeps a {@link Watermark} beside it ({@code PREFIX.acknowledged},
 * without the prefix's trailing dash), rewritten after each sync with the next record's number. An
 * open that finds fewer records than it names reports the missing ones as damage: a file truncated
 * or emptied at a record boundary lost synced records, which no torn write can.
 *
 * <p>Durability. Per {@link SyncPolicy}; creating and deleting segments also forces the directory.
 * Each segment holds an open file, so segments are meant to be few and large.
 *
 * <p>Not thread-safe: the owner serialises calls, readers included.
 */
public final class RecordLog implements AutoCloseable {

  /**
   * How a log is named and kept.
   *
   * @param prefix start of every segment file's name, e.g. {@code seg-}
   * @param segmentBytes size past which appends start a new segment
   * @param sync when appends are forced to disk
   * @param maxRecordBytes largest payload; a length beyond it on disk reads as damage
   * @param readBufferBytes initial read buffer; it grows for larger records
   * @param numbering reads a record's own number from its payload, for logs whose records carry it
   *     (or null): lets recovery keep the numbers of the records after damage
   */
  public record Options(
      String prefix,
      long segmentBytes,
      SyncPolicy sync,
      int maxRecordBytes,
      int readBufferBytes,
      ToLongFunction<ByteBuffer> numbering) {
    public Options {
      if (prefix.isEmpty() || prefix.contains("/") || prefix.contains("\\")) {
        throw new IllegalArgumentException("bad segment prefix '" + prefix + "'");
      }
      if (segmentBytes <= 0 || maxRecordBytes < 0 || readBufferBytes <= 0) {
        throw new IllegalArgumentException("sizes must be positive");
      }
    }

    /** Unbounded segments, {@link SyncPolicy#ALWAYS}, records up to 16 MiB. */
    public static Options named(String prefix) {
      return new Options(
          prefix,
          Long.MAX_VALUE,
          SyncPolicy.ALWAYS,
          RecordFile.DEFAULT_MAX_RECORD,
          RecordFile.DEFAULT_READ_BUFFER,
          null);
    }

    public Options withSegmentBytes(long bytes) {
      return new Options(prefix, bytes, sync, maxRecordBytes, readBufferBytes, numbering);
    }

    public Options withSync(SyncPolicy policy) {
      return new Options(prefix, segmentBytes, policy, maxRecordBytes, readBufferBytes, numbering);
    }

    public Options withMaxRecordBytes(int bytes) {
      return new Options(prefix, segmentBytes, sync, bytes, readBufferBytes, numbering);
    }

    /**
     * Records carry their own number, read by {@code numbering} from a payload (which it must not
     * change); a record whose number cannot be read throws.
     */
    public Options withNumbering(ToLongFunction<ByteBuffer> numbering) {
      return new Options(prefix, segmentBytes, sync, maxRecordBytes, readBufferBytes, numbering);
    }

    public Options withReadBufferBytes(int bytes) {
      return new Options(prefix, segmentBytes, sync, maxRecordBytes, bytes, numbering);
    }
  }

  /**
   * Where a record starts: the segment it is in (by its first number), its own number and its byte
   * offset in the segment. A reader can resume from one ({@link #read(Position)}) without
   * re-reading the records before it.
   */
  public record Position(long segment, long number, long offset) {}

  /**
   * One segment as it stands.
   *
   * @param firstNumber number of its first record (also in its file name)
   * @param endNumber one past the number of its last record
   * @param bytes its size on disk
   */
  public record SegmentInfo(long firstNumber, long endNumber, long bytes) {
    public long count() {
      return endNumber - firstNumber;
    }

    public long lastNumber() {
      return endNumber - 1;
    }

    /** Where its first record starts. */
    public Position start() {
      return new Position(firstNumber, firstNumber, 0);
    }

    /** Just past its last record: where its next record would start. */
    public Position end() {
      return new Position(firstNumber, endNumber, bytes);
    }
  }

  private static final int DIGITS = 20;
  private static final Logger log = LoggerFactory.getLogger(RecordLog.class);

  private final Path dir;
  private final Options options;

  /** By first record number; the last one is the active segment. */
  final TreeMap<Long, RecordFile> segments = new TreeMap<>();

  private final long truncatedBytes;
  private final List<Damage> damage;
  // Null under SyncPolicy.NEVER: nothing is durable there to witness.
  private Watermark watermark;
  private boolean closed;

  private RecordLog(Path dir, Options options, long truncatedBytes, List<Damage> damage) {
    this.dir = dir;
    this.options = options;
    this.truncatedBytes = truncatedBytes;
    this.damage = new ArrayList<>(damage);
  }

  /** Opens the log in {@code dir}, creating both if absent and recovering the log if not. */
  public static RecordLog open(Path dir, Options options) throws IOException {
    Files.createDirectories(dir);
    TreeMap<Long, Path> files = new TreeMap<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, options.prefix() + "*.log")) {
      for (Path f : ds) {
        long first = firstNumberOf(options.prefix(), f);
        if (first > 0) {
          files.put(first, f);
        }
      }
    }
    try (DirectoryStream<Path> ds =
        Files.newDirectoryStream(dir, options.prefix() + "*.log.repair")) {
      for (Path f : ds) {
        Files.delete(f); // a repair cut short; the segment it came from is still whole
      }
    }
    SegmentRepair repair = new SegmentRepair(options);
    repair.repair(files);
    long truncated = repair.tornBytes();
    TreeMap<Long, RecordFile> opened = new TreeMap<>();
    try {
      for (Map.Entry<Long, Path> f : files.entrySet()) {
        RecordFile file =
            RecordFile.open(
                f.getValue(), options.sync(), options.maxRecordBytes(), options.readBufferBytes());
        opened.put(f.getKey(), file);
        truncated += file.truncatedBytes();
      }
    } catch (IOException | RuntimeException e) {
      for (RecordFile file : opened.values()) {
        file.close();
      }
      throw e;
    }
    RecordLog recordLog = new RecordLog(dir, options, truncated, repair.damage());
    recordLog.segments.putAll(opened);
    if (recordLog.segments.isEmpty()) {
      recordLog.startSegment(1);
    }
    try {
      recordLog.checkWatermark();
    } catch (IOException | RuntimeException e) {
      recordLog.close();
      throw e;
    }
    return recordLog;
  }

  /**
   * The witness beside the log: how far it reached at its last sync. Records it names that the log
   * no longer holds were durable, so the log was cut short (truncated, emptied, its end damaged):
   * they are reported as damage and, in a log whose records carry their numbers, numbering goes on
   * after them, leaving a gap.
   */
  private void checkWatermark() throws IOException {
    if (options.sync() == SyncPolicy.NEVER) {
      return;
    }
    String prefix = options.prefix();
    Path file =
        dir.resolve(
            (prefix.endsWith("-") ? prefix.substring(0, prefix.length() - 1) : prefix)
                + ".acknowledged");
    OptionalLong witnessed = Watermark.read(file);
    RecordFile last = segments.lastEntry().getValue();
    long next = nextNumber();
    long lost = 0;
    if (witnessed.isPresent() && options.numbering() != null) {
      // Records carry their numbers, and damage leaves gaps: the numbers tell.
      lost = witnessed.getAsLong() - next;
    } else if (witnessed.isPresent()) {
      // Records after damage took the numbers of those lost, so count: every record from the
      // first segment on was written, and is either here or reported lost already.
      long present = 0;
      for (RecordFile f : segments.values()) {
        present += f.count();
      }
      lost = witnessed.getAsLong() - firstNumber() - present - Damage.totals(damage)[0];
    }
    if (lost > 0) {
      damage.add(new Damage(last.path(), last.path(), last.size(), 0, next, lost, true));
      log.warn(
          "{} ends before records that were written and synced ({} witnesses it, up to record"
              + " {}): the {} records at its end were lost (the file was cut short or its end"
              + " damaged)",
          last.path(),
          file.getFileName(),
          witnessed.getAsLong() - 1,
          lost);
      if (options.numbering() != null) {
        // New records must not take the numbers of lost ones (acknowledgements may name them).
        startSegment(witnessed.getAsLong());
      }
    }
    watermark = Watermark.open(file);
    watermark.record(nextNumber());
  }

  /** Appends one record; returns its number. */
  public long append(byte[] payload) throws IOException {
    return append(List.of(payload));
  }

  /**
   * Appends records with one write (and, under {@link SyncPolicy#ALWAYS}, one sync), all in the
   * same segment.
   *
   * @return the number of the first; the rest follow consecutively
   */
  public long append(List<byte[]> payloads) throws IOException {
    ensureOpen();
    RecordFile active = active();
    if (active.size() > 0 && active.size() + Frames.frameBytes(payloads) > options.segmentBytes()) {
      roll();
      active = active();
    }
    long first = nextNumber();
    active.append(payloads);
    if (options.sync() == SyncPolicy.ALWAYS) {
      watermark.record(nextNumber());
    }
    return first;
  }

  /** Forces everything appended so far to disk (a no-op under {@link SyncPolicy#NEVER}). */
  public void sync() throws IOException {
    ensureOpen();
    active().sync();
    if (watermark != null) {
      watermark.record(nextNumber());
    }
  }

  /**
   * Starts a new segment for the records that follow (unless the active one is still empty).
   *
   * @return the number of the first record of the new active segment
   */
  public long roll() throws IOException {
    ensureOpen();
    RecordFile active = active();
    if (active.count() == 0) {
      return segments.lastKey();
    }
    active.sync();
    long next = nextNumber();
    startSegment(next);
    return next;
  }

  /**
   * Deletes, oldest first, every segment all of whose records are numbered below {@code number},
   * never the active one.
   *
   * @return how many segments were deleted
   */
  public int dropBefore(long number) throws IOException {
    ensureOpen();
    int dropped = 0;
    while (segments.size() > 1) {
      Map.Entry<Long, RecordFile> oldest = segments.firstEntry();
      if (oldest.getKey() + oldest.getValue().count() > number) {
        break;
      }
      oldest.getValue().close();
      Files.deleteIfExists(oldest.getValue().path());
      segments.remove(oldest.getKey());
      dropped++;
    }
    if (dropped > 0) {
      RecordFile.syncDirectory(dir);
    }
    return dropped;
  }

  /** A reader from the first record numbered {@code number} or later. */
  public RecordReader read(long number) {
    ensureOpen();
    Long floor = segments.floorKey(number);
    long first = floor == null ? segments.firstKey() : floor;
    return new RecordReader(this, new Position(first, first, 0), number);
  }

  /**
   * A reader from {@code at}, a position a reader of this log returned (or a segment's start or
   * end); if its segment has been dropped since, from the first record.
   */
  public RecordReader read(Position at) {
    ensureOpen();
    RecordFile seg = segments.get(at.segment());
    if (seg == null || at.offset() > seg.size()) {
      return read(at.number());
    }
    return new RecordReader(this, at, at.number());
  }

  /** The number the next appended record will get. */
  public long nextNumber() {
    return segments.lastKey() + active().count();
  }

  /** The number of the oldest segment's first record. */
  public long firstNumber() {
    return segments.firstKey();
  }

  /** The segments, oldest first; the last is the active one. */
  public List<SegmentInfo> segments() {
    List<SegmentInfo> out = new ArrayList<>(segments.size());
    segments.forEach((first, f) -> out.add(new SegmentInfo(first, first + f.count(), f.size())));
    return out;
  }

  /** Bytes of all segments. */
  public long sizeBytes() {
    long n = 0;
    for (RecordFile f : segments.values()) {
      n += f.size();
    }
    return n;
  }

  /** Bytes cut off a torn tail when the log was opened. */
  public long truncatedBytes() {
    return truncatedBytes;
  }

  /**
   * Damage skipped when the log was opened, each with the records lost in it; empty for a sound
   * log. The owner counts and reports it (a torn tail is not damage: {@link #truncatedBytes}).
   */
  public List<Damage> damage() {
    return List.copyOf(damage);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException failed = null;
    if (watermark != null) {
      try {
        watermark.close();
      } catch (IOException e) {
        failed = e;
      }
    }
    for (RecordFile f : segments.values()) {
      try {
        f.close();
      } catch (IOException e) {
        failed = failed == null ? e : failed;
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  @Override
  public String toString() {
    return "RecordLog["
        + dir
        + "/"
        + options.prefix()
        + "*, segments="
        + segments.size()
        + ", next="
        + nextNumber()
        + "]";
  }

  private RecordFile active() {
    return segments.lastEntry().getValue();
  }

  private void startSegment(long firstNumber) throws IOException {
    Path file = segmentPath(dir, options.prefix(), firstNumber);
    segments.put(
        firstNumber,
        RecordFile.open(file, options.sync(), options.maxRecordBytes(), options.readBufferBytes()));
    RecordFile.syncDirectory(dir);
  }

  static Path segmentPath(Path dir, String prefix, long firstNumber) {
    return dir.resolve(prefix + String.format("%0" + DIGITS + "d", firstNumber) + ".log");
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
  }

  /** The first record number in a segment file's name, or -1 if it is not one of this log's. */
  static long firstNumberOf(String prefix, Path file) {
    String name = file.getFileName().toString();
    if (!name.startsWith(prefix)
        || !name.endsWith(".log")
        || name.length() != prefix.length() + DIGITS + 4) {
      return -1;
    }
    try {
      return Long.parseLong(name.substring(prefix.length(), prefix.length() + DIGITS));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
