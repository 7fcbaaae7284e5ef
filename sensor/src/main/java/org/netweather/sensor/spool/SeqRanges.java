package org.netweather.sensor.spool;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A set of sequence numbers held as disjoint, merged, inclusive ranges: acknowledgements mostly
 * arrive in runs, so a day of them takes a handful of entries.
 *
 * <p>Not thread-safe.
 */
final class SeqRanges {

  private final NavigableMap<Long, Long> ranges = new TreeMap<>();
  private long count;

  /** Adds [from, to]; returns how many numbers were new. */
  long add(long from, long to) {
    if (from > to) {
      return 0;
    }
    long before = count;
    long start = from;
    long end = to;
    Map.Entry<Long, Long> left = ranges.floorEntry(from);
    if (left != null && left.getValue() >= from - 1) {
      start = left.getKey();
      end = Math.max(end, left.getValue());
      remove(left.getKey());
    }
    Map.Entry<Long, Long> next = ranges.ceilingEntry(start);
    while (next != null && next.getKey() <= end + 1) {
      end = Math.max(end, next.getValue());
      remove(next.getKey());
      next = ranges.ceilingEntry(start);
    }
    ranges.put(start, end);
    count += end - start + 1;
    return count - before;
  }

  private void remove(long start) {
    Long end = ranges.remove(start);
    count -= end - start + 1;
  }

  boolean contains(long seq) {
    Map.Entry<Long, Long> e = ranges.floorEntry(seq);
    return e != null && e.getValue() >= seq;
  }

  /** Whether every number in [from, to] is in the set; true for an empty range. */
  boolean covers(long from, long to) {
    if (from > to) {
      return true;
    }
    Map.Entry<Long, Long> e = ranges.floorEntry(from);
    return e != null && e.getValue() >= to;
  }

  /** How many numbers of [from, to] are in the set. */
  long countIn(long from, long to) {
    long n = 0;
    for (Map.Entry<Long, Long> e : ranges.entrySet()) {
      long lo = Math.max(from, e.getKey());
      long hi = Math.min(to, e.getValue());
      if (hi >= lo) {
        n += hi - lo + 1;
      }
    }
    return n;
  }

  /** Forgets every number below {@code seq}. */
  void removeBelow(long seq) {
    while (!ranges.isEmpty() && ranges.firstKey() < seq) {
      long start = ranges.firstKey();
      long end = ranges.get(start);
      remove(start);
      if (end >= seq) {
        ranges.put(seq, end);
        count += end - seq + 1;
      }
    }
  }

  long count() {
    return count;
  }

  int rangeCount() {
    return ranges.size();
  }

  void forEach(BiConsumer<Long, Long> action) {
    ranges.forEach(action);
  }
}
