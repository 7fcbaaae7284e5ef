package org.netweather.runtime.recordlog;

import java.nio.file.Path;

/**
 * A stretch of a record file found unreadable when the file was opened, with valid records after
 * it: skipped, with what it held, and kept aside.
 *
 * @param file the file it was found in
 * @param keptIn a copy of that file as it was found, before it was repaired
 * @param offset where the unreadable bytes start in the file as found
 * @param bytes how many bytes were skipped
 * @param firstLost the number of the first record lost (in a {@link RecordFile} on its own: how
 *     many whole records precede it)
 * @param lostRecords records lost there: exactly this many when {@code exact}, at least this many
 *     otherwise
 * @param exact whether {@code lostRecords} is exact
 */
public record Damage(
    Path file,
    Path keptIn,
    long offset,
    long bytes,
    long firstLost,
    long lostRecords,
    boolean exact) {

  /** The lost records' count, as a phrase for a log line. */
  public String lostPhrase() {
    return (exact ? "" : "at least ") + lostRecords + (lostRecords == 1 ? " record" : " records");
  }

  /** Sums what a list of damage lost: {records, bytes}. */
  public static long[] totals(Iterable<Damage> damage) {
    long records = 0;
    long bytes = 0;
    for (Damage d : damage) {
      records += d.lostRecords();
      bytes += d.bytes();
    }
    return new long[] {records, bytes};
  }
}
