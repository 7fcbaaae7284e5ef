package org.netweather.nameserver;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nameserver's durable state: a snapshot file plus a journal of changes since, both made of
 * checksummed frames. A change is forced to disk before the caller is answered, so a kill -9
 * loses nothing acknowledged; a torn frame at the end of the journal (a crash mid-write, never
 * acknowledged) is cut off on load.
 *
 * <pre>
 *   frame = length:int32  crc32(payload):int32  payload:length bytes   (see {@link JournalEntry})
 * </pre>
 *
 * <p>Not thread-safe: the nameserver calls it under its own lock.
 */
final class Journal implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Journal.class);
  private static final int MAX_FRAME = 16 << 20;

  private final Path snapshotFile;
  private final Path journalFile;
  private FileChannel journal;
  private long frames;

  Journal(Path dir) throws IOException {
    Files.createDirectories(dir);
    this.snapshotFile = dir.resolve("nameserver.snapshot");
    this.journalFile = dir.resolve("nameserver.journal");
  }

  /** Reads the snapshot and then the journal, and opens the journal for appending. */
  List<JournalEntry> load() throws IOException {
    List<JournalEntry> entries = new ArrayList<>();
    if (Files.exists(snapshotFile)) {
      long good = read(snapshotFile, entries);
      if (good != Files.size(snapshotFile)) {
        throw new IOException("snapshot " + snapshotFile + " is corrupt at byte " + good);
      }
    }
    int fromSnapshot = entries.size();
    long good = Files.exists(journalFile) ? read(journalFile, entries) : 0;
    journal = FileChannel.open(journalFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    if (journal.size() > good) {
      log.warn("cutting a torn tail of {} bytes off {}", journal.size() - good, journalFile);
      journal.truncate(good);
      journal.force(true);
    }
    journal.position(good);
    frames = (long) entries.size() - fromSnapshot;
    return entries;
  }

  /** Appends entries; when {@code sync}, they are on disk when this returns. */
  void append(List<? extends JournalEntry> entries, boolean sync) throws IOException {
    for (JournalEntry e : entries) {
      writeFrame(journal, e.encode());
      frames++;
    }
    if (sync) {
      journal.force(false);
    }
  }

  /** Number of frames in the journal since the last snapshot. */
  long journalFrames() {
    return frames;
  }

  /** Replaces the snapshot with {@code state} and empties the journal. */
  void compact(List<? extends JournalEntry> state) throws IOException {
    Path tmp = snapshotFile.resolveSibling(snapshotFile.getFileName() + ".tmp");
    try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      for (JournalEntry e : state) {
        writeFrame(out, e.encode());
      }
      out.force(true);
    }
    Files.move(tmp, snapshotFile, StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    // A crash here replays the old journal over the new snapshot: harmless, every entry is
    // idempotent against a state that already holds it.
    journal.truncate(0);
    journal.position(0);
    journal.force(true);
    frames = 0;
  }

  private static void writeFrame(FileChannel out, byte[] payload) throws IOException {
    CRC32 crc = new CRC32();
    crc.update(payload);
    ByteBuffer b = ByteBuffer.allocate(8 + payload.length);
    b.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
    while (b.hasRemaining()) {
      out.write(b);
    }
  }

  /** Reads whole, valid frames and returns the offset just past the last of them. */
  private static long read(Path file, List<JournalEntry> into) throws IOException {
    byte[] all = Files.readAllBytes(file);
    ByteBuffer b = ByteBuffer.wrap(all);
    long good = 0;
    while (b.remaining() >= 8) {
      int len = b.getInt();
      int crc = b.getInt();
      if (len < 0 || len > MAX_FRAME || len > b.remaining()) {
        break;
      }
      byte[] payload = new byte[len];
      b.get(payload);
      CRC32 c = new CRC32();
      c.update(payload);
      if ((int) c.getValue() != crc) {
        break;
      }
      into.add(JournalEntry.decode(new DataInputStream(new ByteArrayInputStream(payload))));
      good = b.position();
    }
    return good;
  }

  @Override
  public void close() throws IOException {
    if (journal != null) {
      journal.close();
    }
  }
}
