package org.netweather.sensor.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Measurements kept on disk until a memory-host acknowledges them.
 *
 * <pre>{@code
 * Spool spool = Spool.open(dataDir.resolve("spool"), SpoolOptions.defaults());
 * spool.append(List.of(new SpoolRecord("cpu.availability:alpha", nowMs, 0.93))); // durable
 * List<SpoolEntry> batch = spool.unacknowledged(500, s -> hostFor(s).equals(host));
 * // ... Append to that memory-host; on success:
 * spool.acknowledge(batch.stream().mapToLong(SpoolEntry::seq).toArray());
 * }</pre>
 *
 * <pre>
 * Layout. A directory of segment files (Segment: length- and crc-framed records with consecutive
 * sequence numbers) and an acknowledgement log (AckLog: crc-framed ranges of sequence numbers).
 *
 * Durability. append() returns after fdatasync of the segment; acknowledge() after fdatasync of
 * the ack log; creating, renaming and deleting files also syncs the directory. A crash loses
 * nothing that a call had returned for.
 *
 * Recovery. open() reads every segment, keeps each one's longest valid prefix and truncates the
 * rest (a torn tail from a crash mid-write), then loads the ack log up to its first bad record.
 * An acknowledgement lost to a crash means a re-delivery, which memory-hosts absorb because they
 * keep the first of duplicate (series, timestamp) points.
 *
 * When full (segments would exceed maxBytes): the oldest segment is deleted, acknowledged or
 * not, and its unacknowledged entries are counted in dropped(). Newest data wins because it is
 * what forecasts need next, and a memory-host back from a long outage still gets the most recent
 * history. The loss is bounded to one segment (maxBytes / 8 by default) at a time.
 *
 * Compaction. Segments whose every entry is acknowledged are deleted (after acknowledge() and in
 * compact()); the ack log is rewritten to the ranges still relevant when it has grown past 4096
 * records or a segment went away.
 * </pre>
 *
 * <p>Thread-safe: every method is synchronized; appends are fast (one small write and one sync).
 */
public final class Spool implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(Spool.class.getName());
  private static final long ACK_LOG_REWRITE = 4096;

  private final Path dir;
  private final SpoolOptions options;
  private final TreeMap<Long, Segment> segments = new TreeMap<>();
  private final SeqRanges acked = new SeqRanges();
  private final AckLog ackLog;
  private long bytes;
  private long dropped;
  private boolean closed;

  private Spool(Path dir, SpoolOptions options, AckLog ackLog) {
    this.dir = dir;
    this.options = options;
    this.ackLog = ackLog;
  }

  /** Opens the spool in {@code dir}, creating it if absent and recovering it if not. */
  public static Spool open(Path dir, SpoolOptions options) throws IOException {
    Files.createDirectories(dir);
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "seg-*.log")) {
      ds.forEach(files::add);
    }
    TreeMap<Long, Segment> found = new TreeMap<>();
    for (Path f : files) {
      long first = Segment.firstSeqOf(f);
      if (first < 0) {
        continue;
      }
      Segment s = Segment.recover(f, first);
      if (s.truncatedBytes > 0) {
        LOG.log(System.Logger.Level.WARNING,
            "spool segment {0}: dropped a torn tail of {1} bytes", f, s.truncatedBytes);
      }
      found.put(first, s);
    }
    SeqRanges acks = new SeqRanges();
    AckLog log = AckLog.open(dir, acks);
    Spool spool = new Spool(dir, options, log);
    spool.segments.putAll(found);
    if (spool.segments.isEmpty()) {
      spool.segments.put(1L, Segment.create(dir, 1));
      syncDirectory(dir);
    }
    for (Segment s : spool.segments.values()) {
      spool.bytes += s.size;
    }
    // Only acknowledgements of entries still on disk mean anything.
    long lo = spool.segments.firstKey();
    long hi = spool.segments.lastEntry().getValue().lastSeq();
    acks.forEach((f, t) -> spool.acked.add(Math.max(f, lo), Math.min(t, hi)));
    return spool;
  }

  /** Appends one measurement durably; returns its sequence number. */
  public long append(String series, long timestampMs, double value) throws IOException {
    return append(List.of(new SpoolRecord(series, timestampMs, value)));
  }

  /**
   * Appends measurements durably, with one sync for all of them.
   *
   * @return the sequence number of the first; the rest follow consecutively
   */
  public synchronized long append(List<SpoolRecord> records) throws IOException {
    ensureOpen();
    if (records.isEmpty()) {
      return active().nextSeq;
    }
    int size = 0;
    for (SpoolRecord r : records) {
      size += Segment.encodedSize(r);
    }
    if (active().size > 0 && active().size + size > options.segmentBytes()) {
      roll();
    }
    Segment seg = active();
    long first = seg.nextSeq;
    ByteBuffer buf = ByteBuffer.allocate(size);
    long seq = first;
    for (SpoolRecord r : records) {
      Segment.encode(buf, seq++, r);
    }
    buf.flip();
    seg.append(buf, records.size());
    seg.sync();
    bytes += size;
    enforceBound();
    return first;
  }

  /** Up to {@code max} unacknowledged entries, oldest first. */
  public List<SpoolEntry> unacknowledged(int max) throws IOException {
    return unacknowledged(max, s -> true);
  }

  /**
   * Up to {@code max} unacknowledged entries whose series passes {@code series}, oldest first;
   * lets the daemon batch per memory-host so one that is down does not hold up the others.
   */
  public synchronized List<SpoolEntry> unacknowledged(int max, Predicate<String> series)
      throws IOException {
    ensureOpen();
    List<SpoolEntry> out = new ArrayList<>(Math.min(max, 1024));
    for (Segment s : segments.values()) {
      if (out.size() >= max) {
        break;
      }
      if (s.count() == 0 || acked.covers(s.firstSeq, s.lastSeq())) {
        continue;
      }
      boolean[] seenUnacked = {false};
      long end =
          s.scan(
              s.hintOffset,
              s.hintSeq,
              (e, offset) -> {
                if (acked.contains(e.seq())) {
                  return true;
                }
                if (!seenUnacked[0]) {
                  // Acknowledgements mostly come in order: start the next scan here.
                  seenUnacked[0] = true;
                  s.hintOffset = offset;
                  s.hintSeq = e.seq();
                }
                if (series.test(e.series())) {
                  out.add(e);
                }
                return out.size() < max;
              });
      if (!seenUnacked[0]) {
        s.hintOffset = end;
        s.hintSeq = s.nextSeq;
      }
    }
    return out;
  }

  /**
   * Marks entries delivered, durably. Unknown or already acknowledged numbers are ignored. Fully
   * acknowledged segments are deleted.
   */
  public synchronized void acknowledge(long... seqs) throws IOException {
    ensureOpen();
    if (seqs.length == 0) {
      return;
    }
    long[] sorted = seqs.clone();
    Arrays.sort(sorted);
    long lo = segments.firstKey();
    long hi = active().lastSeq();
    long[] from = new long[sorted.length];
    long[] to = new long[sorted.length];
    int n = 0;
    for (long s : sorted) {
      if (s < lo || s > hi) {
        continue;
      }
      if (n > 0 && s <= to[n - 1] + 1) {
        to[n - 1] = Math.max(to[n - 1], s);
      } else {
        from[n] = s;
        to[n] = s;
        n++;
      }
    }
    if (n == 0) {
      return;
    }
    ackLog.append(from, to, n);
    for (int i = 0; i < n; i++) {
      acked.add(from[i], to[i]);
    }
    if (deleteAcknowledgedSegments() || ackLog.records() > ACK_LOG_REWRITE) {
      ackLog.rewrite(acked);
    }
  }

  /**
   * Deletes fully acknowledged segments, starting a fresh segment if the current one is fully
   * acknowledged too, and rewrites the ack log to what is left.
   */
  public synchronized void compact() throws IOException {
    ensureOpen();
    Segment a = active();
    if (a.count() > 0 && acked.covers(a.firstSeq, a.lastSeq())) {
      roll();
    }
    deleteAcknowledgedSegments();
    ackLog.rewrite(acked);
  }

  /** Entries spooled and not yet acknowledged. */
  public synchronized long pending() {
    long total = 0;
    for (Segment s : segments.values()) {
      total += s.count();
    }
    return total - acked.count();
  }

  /** Unacknowledged entries deleted because the spool was full, since this spool was opened. */
  public synchronized long dropped() {
    return dropped;
  }

  /** Bytes of segment files on disk. */
  public synchronized long sizeBytes() {
    return bytes;
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    for (Segment s : segments.values()) {
      s.seal();
    }
    ackLog.close();
  }

  private Segment active() {
    return segments.lastEntry().getValue();
  }

  private void roll() throws IOException {
    Segment old = active();
    old.seal();
    Segment next = Segment.create(dir, old.nextSeq);
    segments.put(next.firstSeq, next);
    syncDirectory(dir);
  }

  private void enforceBound() throws IOException {
    boolean deleted = false;
    while (bytes > options.maxBytes() && segments.size() > 1) {
      Segment oldest = segments.firstEntry().getValue();
      long unacked = oldest.count() - acked.countIn(oldest.firstSeq, oldest.lastSeq());
      dropped += unacked;
      if (unacked > 0) {
        LOG.log(System.Logger.Level.WARNING,
            "spool full ({0} bytes): dropped {1} undelivered measurements", bytes, unacked);
      }
      delete(oldest);
      deleted = true;
    }
    if (deleted) {
      syncDirectory(dir);
      ackLog.rewrite(acked);
    }
  }

  private boolean deleteAcknowledgedSegments() throws IOException {
    boolean deleted = false;
    while (segments.size() > 1) {
      Segment oldest = segments.firstEntry().getValue();
      if (!acked.covers(oldest.firstSeq, oldest.lastSeq())) {
        break;
      }
      delete(oldest);
      deleted = true;
    }
    if (deleted) {
      syncDirectory(dir);
    }
    return deleted;
  }

  private void delete(Segment s) throws IOException {
    s.seal();
    Files.deleteIfExists(s.path);
    segments.remove(s.firstSeq);
    bytes -= s.size;
    acked.removeBelow(segments.firstKey());
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("spool is closed");
    }
  }

  /** Makes a directory's entries (new, renamed, deleted files) durable. */
  static void syncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some platforms cannot open a directory; there, rename and delete are as durable as it gets.
      LOG.log(System.Logger.Level.DEBUG, "cannot sync directory " + dir, e);
    }
  }

  @Override
  public String toString() {
    return "Spool[" + dir + ", segments=" + segments.size() + ", bytes=" + bytes + "]";
  }

  Map<Long, Long> segmentSizesForTest() {
    Map<Long, Long> m = new TreeMap<>();
    segments.forEach((k, v) -> m.put(k, v.size));
    return m;
  }
}
