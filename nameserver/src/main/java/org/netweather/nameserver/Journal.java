package org.netweather.nameserver;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.netweather.runtime.recordlog.Damage;
import org.netweather.runtime.recordlog.RecordFile;
import org.netweather.runtime.recordlog.RecordLog;
import org.netweather.runtime.recordlog.RecordReader;
import org.netweather.runtime.recordlog.SyncPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nameserver's durable state: a snapshot ({@code snapshot.records}, a {@link RecordFile}
 * replaced whole) plus a journal of changes since ({@code journal-NNN.log}, a {@link RecordLog}),
 * one {@link JournalEntry} per record. A change is forced to disk before the caller is answered, so
 * a kill -9 loses nothing acknowledged; a torn record at the end of the journal (a crash mid-write,
 * never acknowledged) is cut off on load. Damage in the middle of the journal is skipped, the
 * changes after it kept, and what was lost logged at WARN ({@link #damagedRecords}); so is a
 * journal cut short, which its witness ({@code journal.acknowledged}, see the record log) tells
 * from a torn write. A damaged snapshot refuses the load, naming the file; its first record holds
 * the number of changes that follow, so one cut short or emptied is refused too.
 *
 * <p>Lease renewals are not journaled (see {@link Nameserver}), so the journal grows only with
 * changes to the state, and the owner compacts it once it outweighs the snapshot ({@link
 * #journalBytes} against {@link #snapshotBytes}).
 *
 * <p>Compaction rolls the journal to a new segment, replaces the snapshot with the whole state,
 * then drops the journal segments before it.
 *
 * <p>Not thread-safe: the nameserver calls it under its own lock.
 */
final class Journal implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Journal.class);

  /** Length and checksum in front of every record, in the log and in the snapshot. */
  private static final int FRAME_OVERHEAD = 8;

  private static final byte SNAPSHOT_HEADER = 0;

  private final Path dir;
  private final Path snapshotFile;
  private RecordLog journal;
  private long frames;
  private long journalBytes;
  private long snapshotBytes;
  private long damagedRecords;
  private long damagedBytes;

  Journal(Path dir) throws IOException {
    Files.createDirectories(dir);
    this.dir = dir;
    this.snapshotFile = dir.resolve("snapshot.records");
  }

  /** Reads the snapshot and then the journal, and opens the journal for appending. */
  List<JournalEntry> load() throws IOException {
    for (String old : List.of("nameserver.snapshot", "nameserver.journal")) {
      if (Files.exists(dir.resolve(old))) {
        log.warn(
            "ignoring {}: state in the format before the record log; daemons register "
                + "again on their next heartbeat, cliques must be defined again",
            dir.resolve(old));
      }
    }
    List<JournalEntry> entries = new ArrayList<>();
    List<byte[]> records = RecordFile.readWhole(snapshotFile);
    checkSnapshotWhole(records);
    for (byte[] r : records) {
      snapshotBytes += FRAME_OVERHEAD + r.length;
      if (!isHeader(r)) {
        entries.add(decode(r));
      }
    }
    journal =
        RecordLog.open(dir, RecordLog.Options.named("journal-").withSync(SyncPolicy.EXPLICIT));
    if (!Files.exists(snapshotFile) && journal.firstNumber() > 1) {
      long first = journal.firstNumber();
      journal.close();
      throw new IOException(
          "the journal in "
              + dir
              + " starts at change "
              + first
              + ", but "
              + snapshotFile.getFileName()
              + ", which holds the changes before it, is missing; refusing to start without them"
              + " (restore it from a backup, or move the directory aside to start empty)");
    }
    reportDamage();
    RecordReader r = journal.read(journal.firstNumber());
    while (r.next()) {
      byte[] payload = r.bytes();
      entries.add(decode(payload));
      frames++;
      journalBytes += FRAME_OVERHEAD + payload.length;
    }
    return entries;
  }

  /**
   * Says what damage the journal's recovery skipped: the changes in it (registrations, assignments,
   * cliques) are gone, the ones after it are kept.
   */
  private void reportDamage() {
    if (journal.damage().isEmpty()) {
      return;
    }
    long[] t = Damage.totals(journal.damage());
    damagedRecords = t[0];
    damagedBytes = t[1];
    boolean exact = journal.damage().stream().allMatch(Damage::exact);
    log.warn(
        "journal in {} is damaged: skipped {} unreadable bytes holding {}{} changes, kept every"
            + " change after them; daemons whose registration was lost register again at their"
            + " next heartbeat, a lost clique or series assignment must be defined again; the"
            + " damaged segments as found are kept in {}",
        dir,
        damagedBytes,
        exact ? "" : "at least ",
        damagedRecords,
        journal.damage().stream()
            .map(d -> d.keptIn().getFileName().toString())
            .distinct()
            .toList());
  }

  /** Changes lost to damage found in the journal when it was loaded (a lower bound). */
  long damagedRecords() {
    return damagedRecords;
  }

  /** Unreadable bytes skipped in the journal when it was loaded. */
  long damagedBytes() {
    return damagedBytes;
  }

  /**
   * A snapshot's first record says how many changes follow, so that one cut short at a record
   * boundary (or emptied) is told from a whole one. Type 0 is no {@link JournalEntry}'s.
   */
  private static byte[] header(long count) {
    return ByteBuffer.allocate(9).put(SNAPSHOT_HEADER).putLong(count).array();
  }

  private static boolean isHeader(byte[] record) {
    return record.length == 9 && record[0] == SNAPSHOT_HEADER;
  }

  /** Refuses a snapshot that holds fewer changes than it was written with, naming it. */
  private void checkSnapshotWhole(List<byte[]> records) throws IOException {
    if (!Files.exists(snapshotFile)) {
      return;
    }
    if (records.isEmpty()) {
      throw new IOException(
          snapshotFile
              + " is empty: a snapshot always begins with a header, so it lost its contents;"
              + " refusing to start without the changes it held (restore it from a backup, or"
              + " move the directory aside to start empty; if an older NetWeather saved an empty"
              + " state in it, delete it)");
    }
    if (!isHeader(records.get(0))) {
      // Written before snapshots had a header: read as before.
      return;
    }
    long expected = ByteBuffer.wrap(records.get(0)).getLong(1);
    if (expected != records.size() - 1) {
      throw new IOException(
          snapshotFile
              + " is damaged: it holds "
              + (records.size() - 1)
              + " of the "
              + expected
              + " changes it was written with (it was cut short); refusing to start without"
              + " them (restore it from a backup, or move the directory aside to start empty)");
    }
  }

  private static JournalEntry decode(byte[] payload) throws IOException {
    return JournalEntry.decode(new DataInputStream(new ByteArrayInputStream(payload)));
  }

  /** Appends entries; when {@code sync}, they are on disk when this returns. */
  void append(List<? extends JournalEntry> entries, boolean sync) throws IOException {
    List<byte[]> payloads = new ArrayList<>(entries.size());
    for (JournalEntry e : entries) {
      byte[] p = e.encode();
      payloads.add(p);
      journalBytes += FRAME_OVERHEAD + p.length;
    }
    try {
      journal.append(payloads);
      if (sync) {
        journal.sync();
      }
    } catch (IOException e) {
      throw new IOException(
          "cannot write the journal " + dir.resolve("journal-*") + ": " + e.getMessage(), e);
    }
    frames += entries.size();
  }

  /** Number of records in the journal since the last snapshot. */
  long journalFrames() {
    return frames;
  }

  /** Bytes of the records in the journal since the last snapshot. */
  long journalBytes() {
    return journalBytes;
  }

  /** Bytes of the records in the snapshot. */
  long snapshotBytes() {
    return snapshotBytes;
  }

  /** Replaces the snapshot with {@code state} and empties the journal. */
  void compact(List<? extends JournalEntry> state) throws IOException {
    long mark = journal.roll();
    List<byte[]> payloads = new ArrayList<>(state.size() + 1);
    payloads.add(header(state.size()));
    long bytes = (long) FRAME_OVERHEAD + payloads.get(0).length;
    for (JournalEntry e : state) {
      byte[] p = e.encode();
      payloads.add(p);
      bytes += FRAME_OVERHEAD + p.length;
    }
    try {
      RecordFile.replace(snapshotFile, payloads);
    } catch (IOException e) {
      throw new IOException("cannot write the snapshot " + snapshotFile + ": " + e.getMessage(), e);
    }
    // A crash here replays the old journal over the new snapshot: harmless, every entry is
    // idempotent against a state that already holds it.
    journal.dropBefore(mark);
    frames = 0;
    journalBytes = 0;
    snapshotBytes = bytes;
  }

  @Override
  public void close() throws IOException {
    if (journal != null) {
      journal.close();
    }
  }
}
