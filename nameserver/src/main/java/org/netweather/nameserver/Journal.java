package org.netweather.nameserver;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.netweather.runtime.recordlog.RecordFile;
import org.netweather.runtime.recordlog.RecordLog;
import org.netweather.runtime.recordlog.RecordReader;
import org.netweather.runtime.recordlog.SyncPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nameserver's durable state: a snapshot ({@code snapshot.records}, a {@link RecordFile}
 * replaced whole) plus a journal of changes since ({@code journal-NNN.log}, a {@link RecordLog}),
 * one {@link JournalEntry} per record. A change is forced to disk before the caller is answered,
 * so a kill -9 loses nothing acknowledged; a torn record at the end of the journal (a crash
 * mid-write, never acknowledged) is cut off on load.
 *
 * <p>Compaction rolls the journal to a new segment, replaces the snapshot with the whole state,
 * then drops the journal segments before it.
 *
 * <p>Not thread-safe: the nameserver calls it under its own lock.
 */
final class Journal implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Journal.class);

  private final Path dir;
  private final Path snapshotFile;
  private RecordLog journal;
  private long frames;

  Journal(Path dir) throws IOException {
    Files.createDirectories(dir);
    this.dir = dir;
    this.snapshotFile = dir.resolve("snapshot.records");
  }

  /** Reads the snapshot and then the journal, and opens the journal for appending. */
  List<JournalEntry> load() throws IOException {
    for (String old : List.of("nameserver.snapshot", "nameserver.journal")) {
      if (Files.exists(dir.resolve(old))) {
        log.warn("ignoring {}: state in the format before the record log; daemons register "
            + "again on their next heartbeat, cliques must be defined again", dir.resolve(old));
      }
    }
    List<JournalEntry> entries = new ArrayList<>();
    for (byte[] r : RecordFile.readWhole(snapshotFile)) {
      entries.add(decode(r));
    }
    journal = RecordLog.open(dir,
        RecordLog.Options.named("journal-").withSync(SyncPolicy.EXPLICIT));
    RecordReader r = journal.read(journal.firstNumber());
    while (r.next()) {
      entries.add(decode(r.bytes()));
      frames++;
    }
    return entries;
  }

  private static JournalEntry decode(byte[] payload) throws IOException {
    return JournalEntry.decode(new DataInputStream(new ByteArrayInputStream(payload)));
  }

  /** Appends entries; when {@code sync}, they are on disk when this returns. */
  void append(List<? extends JournalEntry> entries, boolean sync) throws IOException {
    List<byte[]> payloads = new ArrayList<>(entries.size());
    for (JournalEntry e : entries) {
      payloads.add(e.encode());
    }
    journal.append(payloads);
    frames += entries.size();
    if (sync) {
      journal.sync();
    }
  }

  /** Number of records in the journal since the last snapshot. */
  long journalFrames() {
    return frames;
  }

  /** Replaces the snapshot with {@code state} and empties the journal. */
  void compact(List<? extends JournalEntry> state) throws IOException {
    long mark = journal.roll();
    List<byte[]> payloads = new ArrayList<>(state.size());
    for (JournalEntry e : state) {
      payloads.add(e.encode());
    }
    RecordFile.replace(snapshotFile, payloads);
    // A crash here replays the old journal over the new snapshot: harmless, every entry is
    // idempotent against a state that already holds it.
    journal.dropBefore(mark);
    frames = 0;
  }

  @Override
  public void close() throws IOException {
    if (journal != null) {
      journal.close();
    }
  }
}
