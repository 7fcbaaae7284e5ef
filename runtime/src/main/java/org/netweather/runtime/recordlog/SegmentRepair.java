package org.netweather.runtime.recordlog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs the damaged segments of a {@link RecordLog} before it opens them, keeping record numbers
 * where it can.
 *
 * <p>A segment whose unreadable bytes are followed by valid records is split: the records before
 * the damage stay in the segment, and each later run of valid records becomes a segment of its own,
 * named for the number of its first record. That number is read from the record when the log's
 * records carry it ({@link RecordLog.Options#withNumbering}); otherwise the run goes on from where
 * the one before ended, so the records after the damage are renumbered down (for logs that only
 * replay in order, such as a journal). Unreadable bytes at the end of a segment that is not the
 * last are damage too (a segment is forced to disk before the next one starts): they are cut off,
 * and the next segment's number says how many records went with them. The segment as found is first
 * copied to {@code SEGMENT.damaged}.
 *
 * <p>Order of the changes: copy aside, write the new segments under temporary names, cut the
 * damaged one, then rename. A crash in between leaves the copy, so nothing is lost for good.
 */
final class SegmentRepair {
  private static final Logger log = LoggerFactory.getLogger(SegmentRepair.class);

  private final RecordLog.Options options;
  private final List<Damage> damage = new ArrayList<>();
  private long tornBytes;

  SegmentRepair(RecordLog.Options options) {
    this.options = options;
  }

  /** Repairs the segments of {@code files} (by first number) in place, updating the map. */
  void repair(NavigableMap<Long, Path> files) throws IOException {
    for (Map.Entry<Long, Path> f : new TreeMap<>(files).entrySet()) {
      Long next = files.higherKey(f.getKey());
      repairOne(files, f.getKey(), f.getValue(), next);
    }
  }

  /** Damage found and skipped, in the order found. */
  List<Damage> damage() {
    return List.copyOf(damage);
  }

  private void repairOne(NavigableMap<Long, Path> files, long first, Path file, Long nextFirst)
      throws IOException {
    FrameScan scan;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      scan = FrameScan.of(ch, options.maxRecordBytes(), options.readBufferBytes());
      boolean tailIsDamage = nextFirst != null && scan.tailBytes() > 0;
      if (!scan.damagedInMiddle() && !tailIsDamage) {
        return;
      }
      Path aside = Repair.keepAside(file);
      List<Damage> found = new ArrayList<>();
      long[] numbers = new long[scan.runs.size()];
      long expected = first;
      for (int i = 0; i < scan.runs.size(); i++) {
        FrameScan.Run run = scan.runs.get(i);
        long n = expected;
        if (i > 0) {
          FrameScan.Run prev = scan.runs.get(i - 1);
          long claimed = claimedNumber(run, expected, nextFirst);
          boolean exact;
          long lost;
          if (claimed >= 0) {
            n = claimed;
            lost = claimed - expected;
            exact = true;
          } else {
            lost = 1;
            exact = scan.oneFrameBefore(ch, i, options.maxRecordBytes());
          }
          found.add(
              new Damage(file, aside, prev.end(), run.start() - prev.end(), expected, lost, exact));
        }
        numbers[i] = n;
        expected = n + run.count();
      }
      if (tailIsDamage) {
        found.add(
            new Damage(
                file,
                aside,
                scan.validEnd(),
                scan.tailBytes(),
                expected,
                Math.max(0, nextFirst - expected),
                true));
      } else {
        tornBytes += scan.tailBytes();
      }
      List<Path> written = new ArrayList<>();
      for (int i = 1; i < scan.runs.size(); i++) {
        Path target = segmentTmp(file, numbers[i]);
        Repair.writeRuns(ch, List.of(scan.runs.get(i)), target);
        written.add(target);
      }
      FrameScan.Run head = scan.runs.get(0);
      if (head.count() == 0) {
        Files.delete(file);
        files.remove(first);
      } else {
        try (FileChannel w = FileChannel.open(file, StandardOpenOption.WRITE)) {
          w.truncate(head.end());
          w.force(true);
        }
      }
      for (int i = 1; i < scan.runs.size(); i++) {
        Path target = RecordLog.segmentPath(file.getParent(), options.prefix(), numbers[i]);
        Files.move(written.get(i - 1), target, StandardCopyOption.ATOMIC_MOVE);
        files.put(numbers[i], target);
      }
      RecordFile.syncDirectory(file.toAbsolutePath().getParent());
      damage.addAll(found);
      long[] t = Damage.totals(found);
      log.warn(
          "{}: damaged: skipped {} unreadable bytes in {} places ({}{} records lost: numbers {}),"
              + " kept the {} whole records around them; the file as found is kept in {}",
          file,
          t[1],
          found.size(),
          found.stream().allMatch(Damage::exact) ? "" : "at least ",
          t[0],
          ranges(found),
          scan.count(),
          aside);
    }
  }

  /**
   * The number the run's first record says it has, when the log's records carry one and it fits
   * (after the records before the damage, and leaving room for the run before the next segment); -1
   * otherwise.
   */
  private long claimedNumber(FrameScan.Run run, long expected, Long nextFirst) {
    ToLongFunction<java.nio.ByteBuffer> numbering = options.numbering();
    if (numbering == null || run.first() == null) {
      return -1;
    }
    long claimed;
    try {
      claimed = numbering.applyAsLong(run.first().duplicate());
    } catch (RuntimeException e) {
      return -1;
    }
    boolean fits = claimed >= expected && (nextFirst == null || claimed + run.count() <= nextFirst);
    return fits ? claimed : -1;
  }

  private static String ranges(List<Damage> found) {
    StringBuilder b = new StringBuilder();
    for (Damage d : found) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(d.firstLost());
      if (d.lostRecords() != 1 || !d.exact()) {
        b.append("..").append(d.exact() ? d.firstLost() + d.lostRecords() - 1 : "?");
      }
    }
    return b.toString();
  }

  private Path segmentTmp(Path file, long number) {
    Path target = RecordLog.segmentPath(file.getParent(), options.prefix(), number);
    return target.resolveSibling(target.getFileName() + ".repair");
  }

  /** Bytes after the last valid record of the last segment (a torn tail, cut off as usual). */
  long tornBytes() {
    return tornBytes;
  }
}
