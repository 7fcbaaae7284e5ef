package org.netweather.sensor.spool;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.netweather.runtime.recordlog.Damage;
import org.netweather.runtime.recordlog.RecordLog;
import org.netweather.runtime.recordlog.RecordLog.Position;
import org.netweather.runtime.recordlog.RecordLog.SegmentInfo;
import org.netweather.runtime.recordlog.RecordReader;
import org.netweather.runtime.recordlog.SyncPolicy;

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
 * Layout. A RecordLog of segment files seg-NNN.log, one record per measurement (SpoolCodec),
 * the record's number in the log being its sequence number; and an acknowledgement log
 * (AckLog: a RecordFile of ranges of sequence numbers).
 *
 * Durability. append() returns after fdatasync of the segment; acknowledge() after fdatasync of
 * the ack log; creating, renaming and deleting files also syncs the directory. A crash loses
 * nothing that a call had returned for.
 *
 * Recovery. open() cuts off a torn tail (a crash mid-write: bytes after the last valid record
 * of the last segment, nothing valid after them). Damage (unreadable bytes with valid records
 * after them, or a segment before the last cut short) is skipped: every record after it is kept
 * under its own sequence number (each record carries it), the segment as found is kept as
 * seg-NNN.log.damaged, and the undelivered measurements lost in the damage are counted in
 * dropped() and logged at WARN. So are those of a segment cut short or emptied (the active one's
 * loss witnessed by seg.acknowledged). Every loss leaves a gap in the numbers; the open that counts
 * a gap records it in the ack log, so that no later open counts it again. The ack log is recovered the same way; an acknowledgement lost
 * to damage only means a re-delivery.
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
  private final RecordLog log;
  private final SeqRanges acked = new SeqRanges();
  private final AckLog ackLog;

  /** Per segment, by its first number: where its oldest maybe-unacknowledged entry starts. */
  private final TreeMap<Long, Position> hints = new TreeMap<>();

  private long dropped;
  private long lostToDamage;
  private boolean closed;

  private Spool(Path dir, SpoolOptions options, RecordLog log, AckLog ackLog) {
    this.dir = dir;
    this.options = options;
    this.log = log;
    this.ackLog = ackLog;
  }

  /** Opens the spool in {@code dir}, creating it if absent and recovering it if not. */
  public static Spool open(Path dir, SpoolOptions options) throws IOException {
    RecordLog log =
        RecordLog.open(
            dir,
            RecordLog.Options.named("seg-")
                .withSegmentBytes(options.segmentBytes())
                .withSync(SyncPolicy.ALWAYS)
                .withNumbering(SpoolCodec::numberOf));
    SeqRanges acks = new SeqRanges();
    AckLog ackLog;
    try {
      ackLog = AckLog.open(dir, acks);
    } catch (IOException | RuntimeException e) {
      log.close();
      throw e;
    }
    Spool spool = new Spool(dir, options, log, ackLog);
    // Only acknowledgements of numbers the log still spans mean anything; those of numbers
    // between segments (lost to damage) say the loss was delivered, or counted, already.
    long lowest = log.firstNumber();
    long highest = log.nextNumber() - 1;
    acks.forEach(
        (f, t) -> {
          long lo = Math.max(f, lowest);
          long hi = Math.min(t, highest);
          if (lo <= hi) {
            spool.acked.add(lo, hi);
          }
        });
    try {
      spool.countGaps(log.damage(), acks);
      spool.dropUndecodable();
    } catch (IOException | RuntimeException e) {
      spool.close();
      throw e;
    }
    return spool;
  }

  /**
   * Acknowledges, counts as dropped and reports the records that are whole frames but not
   * measurements (shorter than one, or holding a sequence number other than their place): left in
   * place, every delivery attempt would stop at them and nothing after them would leave.
   */
  private void dropUndecodable() throws IOException {
    List<Long> bad = new ArrayList<>();
    String why = null;
    for (SegmentInfo s : log.segments()) {
      if (s.count() == 0 || acked.covers(s.firstNumber(), s.lastNumber())) {
        continue;
      }
      RecordReader r = log.read(s.start());
      while (r.next() && r.number() <= s.lastNumber()) {
        if (acked.contains(r.number())) {
          continue;
        }
        try {
          SpoolCodec.decode(r.number(), r.payload());
        } catch (IOException e) {
          bad.add(r.number());
          why = why == null ? e.getMessage() : why;
        }
      }
    }
    if (bad.isEmpty()) {
      return;
    }
    acknowledge(bad.stream().mapToLong(Long::longValue).toArray());
    dropped += bad.size();
    lostToDamage += bad.size();
    LOG.log(
        System.Logger.Level.WARNING,
        "spool in {0}: {1} records are not measurements (the first: {2}); counted as dropped and"
            + " acknowledged, so that delivery goes on past them",
        dir,
        bad.size(),
        why);
  }

  /**
   * Counts the undelivered measurements lost to damage as dropped, says so, and acknowledges their
   * numbers so that the next open does not count them again. Every loss leaves a gap in the numbers
   * between segments (each record carries its number): damage in the middle splits a segment, a
   * segment before the last cut short ends before the next one begins, and the active segment cut
   * short is followed by one that starts after the last number written.
   */
  private void countGaps(List<Damage> damage, SeqRanges acks) throws IOException {
    long prevEnd = Long.MIN_VALUE;
    for (SegmentInfo s : log.segments()) {
      if (prevEnd != Long.MIN_VALUE && s.firstNumber() > prevEnd + 1) {
        countGap(prevEnd + 1, s.firstNumber() - 1, damage, acked, true);
      }
      prevEnd = Math.max(prevEnd, s.endNumber() - 1);
    }
    // A segment left with nothing readable is deleted by the repair: what it lost lies below the
    // oldest segment, where no gap shows it, and no later open will see it again.
    for (Damage d : damage) {
      long to = Math.min(d.firstLost() + d.lostRecords() - 1, log.firstNumber() - 1);
      if (d.lostRecords() > 0 && d.firstLost() <= to) {
        countGap(d.firstLost(), to, damage, acks, false);
      }
    }
  }

  private void countGap(long from, long to, List<Damage> damage, SeqRanges acks, boolean remember)
      throws IOException {
    long delivered = acks.countIn(from, to);
    long lost = to - from + 1 - delivered;
    if (lost <= 0) {
      return;
    }
    if (remember) {
      ackLog.append(new long[] {from}, new long[] {to}, 1);
      acked.add(from, to);
    }
    dropped += lost;
    lostToDamage += lost;
    Damage d =
        damage.stream()
            .filter(x -> x.firstLost() <= to && x.firstLost() + x.lostRecords() > from)
            .findFirst()
            .orElse(null);
    LOG.log(
        System.Logger.Level.WARNING,
        "spool segment {0} is damaged: {1} undelivered measurements lost (sequence numbers"
            + " {2}..{3}, {4} of them delivered already), counted as dropped; {5} bytes skipped,"
            + " the segment as found is kept in {6}",
        d == null ? "before sequence number " + (to + 1) : d.file(),
        lost,
        from,
        to,
        delivered,
        d == null ? 0 : d.bytes(),
        d == null ? "(none)" : d.keptIn());
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
      return log.nextNumber();
    }
    // Rolling to a new segment keeps the numbering: the batch gets the numbers that follow now.
    long seq = log.nextNumber();
    List<byte[]> payloads = new ArrayList<>(records.size());
    for (SpoolRecord r : records) {
      payloads.add(SpoolCodec.encode(seq++, r));
    }
    long first = log.append(payloads);
    enforceBound();
    return first;
  }

  /** Up to {@code max} unacknowledged entries, oldest first. */
  public List<SpoolEntry> unacknowledged(int max) throws IOException {
    return unacknowledged(max, s -> true);
  }

  /**
   * Up to {@code max} unacknowledged entries whose series passes {@code series}, oldest first; lets
   * the daemon batch per memory-host so one that is down does not hold up the others.
   */
  public synchronized List<SpoolEntry> unacknowledged(int max, Predicate<String> series)
      throws IOException {
    ensureOpen();
    List<SpoolEntry> out = new ArrayList<>(Math.min(max, 1024));
    for (SegmentInfo s : log.segments()) {
      if (out.size() >= max) {
        break;
      }
      if (s.count() == 0 || acked.covers(s.firstNumber(), s.lastNumber())) {
        continue;
      }
      Position firstUnacked = null;
      RecordReader r = log.read(hints.getOrDefault(s.firstNumber(), s.start()));
      while (out.size() < max && r.next() && r.number() <= s.lastNumber()) {
        if (acked.contains(r.number())) {
          continue;
        }
        if (firstUnacked == null) {
          // Acknowledgements mostly come in order: start the next scan here.
          firstUnacked = r.position();
        }
        SpoolEntry e = SpoolCodec.decode(r.number(), r.payload());
        if (series.test(e.series())) {
          out.add(e);
        }
      }
      hints.put(s.firstNumber(), firstUnacked != null ? firstUnacked : s.end());
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
    long lo = log.firstNumber();
    long hi = log.nextNumber() - 1;
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
    SegmentInfo a = active();
    if (a.count() > 0 && acked.covers(a.firstNumber(), a.lastNumber())) {
      log.roll();
    }
    deleteAcknowledgedSegments();
    ackLog.rewrite(acked);
  }

  /** Entries spooled and not yet acknowledged. */
  public synchronized long pending() {
    long total = 0;
    for (SegmentInfo s : log.segments()) {
      if (s.count() > 0) {
        total += s.count() - acked.countIn(s.firstNumber(), s.lastNumber());
      }
    }
    return total;
  }

  /**
   * Unacknowledged entries lost since this spool was opened: deleted because the spool was full, or
   * lost to damage found when it was opened ({@link #lostToDamage}).
   */
  public synchronized long dropped() {
    return dropped;
  }

  /**
   * Undelivered measurements lost to damaged segments found when this spool was opened (also
   * counted in {@link #dropped}).
   */
  public synchronized long lostToDamage() {
    return lostToDamage;
  }

  /** Bytes of segment files on disk. */
  public synchronized long sizeBytes() {
    return log.sizeBytes();
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      log.close();
    } finally {
      ackLog.close();
    }
  }

  private SegmentInfo active() {
    List<SegmentInfo> all = log.segments();
    return all.get(all.size() - 1);
  }

  private void enforceBound() throws IOException {
    boolean deleted = false;
    List<SegmentInfo> segs = log.segments();
    while (log.sizeBytes() > options.maxBytes() && segs.size() > 1) {
      SegmentInfo oldest = segs.get(0);
      long unacked = oldest.count() - acked.countIn(oldest.firstNumber(), oldest.lastNumber());
      dropped += unacked;
      if (unacked > 0) {
        LOG.log(
            System.Logger.Level.WARNING,
            "spool full ({0} bytes): dropped {1} undelivered measurements",
            log.sizeBytes(),
            unacked);
      }
      dropThrough(segs.get(1).firstNumber());
      deleted = true;
      segs = log.segments();
    }
    if (deleted) {
      ackLog.rewrite(acked);
    }
  }

  private boolean deleteAcknowledgedSegments() throws IOException {
    List<SegmentInfo> segs = log.segments();
    int n = 0;
    while (n < segs.size() - 1
        && acked.covers(segs.get(n).firstNumber(), segs.get(n).lastNumber())) {
      n++;
    }
    if (n == 0) {
      return false;
    }
    dropThrough(segs.get(n).firstNumber());
    return true;
  }

  /** Drops the segments below {@code first} and forgets what was known about them. */
  private void dropThrough(long first) throws IOException {
    log.dropBefore(first);
    hints.headMap(log.firstNumber()).clear();
    acked.removeBelow(log.firstNumber());
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("spool is closed");
    }
  }

  @Override
  public String toString() {
    return "Spool["
        + dir
        + ", segments="
        + log.segments().size()
        + ", bytes="
        + log.sizeBytes()
        + "]";
  }

  Map<Long, Long> segmentSizesForTest() {
    Map<Long, Long> m = new TreeMap<>();
    log.segments().forEach(s -> m.put(s.firstNumber(), s.bytes()));
    return m;
  }
}
