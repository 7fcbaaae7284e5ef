package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.netweather.nameserver.JournalEntry.Assigned;

/**
 * Issue 29, item 2: the nameserver's snapshot and journal, damaged in each way, then loaded again.
 * Two outcomes are allowed: the load refuses, naming the damaged file; or it loads the changes as
 * written less some, and the changes lost are exactly those it reports ({@link
 * Journal#damagedRecords}, the gauge {@code netweather_nameserver_journal_damaged_records}). Never
 * a change dropped without a word, never a change that was not written.
 */
class JournalDamageMatrixTest {
  private static final int CHANGES = 120;

  /** How a file is damaged. */
  enum Damage {
    FLIP_FIRST_BYTE,
    FLIP_IN_HEADER,
    FLIP_IN_MIDDLE,
    FLIP_IN_LAST_RECORD,
    CUT_TO_EMPTY,
    CUT_AFTER_HEADER,
    CUT_IN_HALF,
    CUT_LAST_BYTE;

    void applyTo(Path file) throws IOException {
      long size = Files.size(file);
      switch (this) {
        case FLIP_FIRST_BYTE -> flip(file, 0);
        case FLIP_IN_HEADER -> flip(file, 5);
        case FLIP_IN_MIDDLE -> flip(file, size / 2);
        case FLIP_IN_LAST_RECORD -> flip(file, size - 6);
        case CUT_TO_EMPTY -> cut(file, 0);
        case CUT_AFTER_HEADER -> cut(file, 8);
        case CUT_IN_HALF -> cut(file, size / 2);
        case CUT_LAST_BYTE -> cut(file, size - 1);
      }
    }
  }

  @TempDir Path dir;

  private static List<JournalEntry> changes() {
    List<JournalEntry> out = new ArrayList<>();
    for (int i = 0; i < CHANGES; i++) {
      out.add(new Assigned("cpu.availability:host-" + i, "memory@m" + (i % 3), 1000 + i));
    }
    return out;
  }

  /**
   * Writes the changes as the nameserver does, a few to a sync, synced before they are answered.
   */
  private void write(List<JournalEntry> changes, int compactAfter) throws IOException {
    try (Journal j = new Journal(dir)) {
      j.load();
      for (int i = 0; i < changes.size(); i += 5) {
        j.append(changes.subList(i, i + 5), true);
        if (i + 5 == compactAfter) {
          j.compact(changes.subList(0, compactAfter));
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void journal(Damage damage) throws IOException {
    List<JournalEntry> written = changes();
    write(written, -1);
    Path file = lastSegment();
    damage.applyTo(file);
    assertRefusedOrReported(written, file);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void journalAfterSnapshot(Damage damage) throws IOException {
    List<JournalEntry> written = changes();
    write(written, 90);
    Path file = lastSegment();
    damage.applyTo(file);
    assertRefusedOrReported(written, file);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void snapshot(Damage damage) throws IOException {
    List<JournalEntry> written = changes();
    write(written, 90);
    Path file = dir.resolve("snapshot.records");
    damage.applyTo(file);
    assertRefusedOrReported(written, file);
  }

  @Test
  void snapshotCutAtARecordBoundary_isRefusedNamingIt() throws IOException {
    List<JournalEntry> written = changes();
    write(written, 90);
    Path file = dir.resolve("snapshot.records");
    cut(file, Files.size(file) - 8 - written.get(89).encode().length);
    IOException refused = assertThrows(IOException.class, this::load);
    assertTrue(
        refused.getMessage().contains("snapshot.records is damaged: it holds 89 of the 90 changes"),
        refused.getMessage());
  }

  @Test
  void snapshotMissingAfterACompaction_isRefusedNamingIt() throws IOException {
    write(changes(), 90);
    Files.delete(dir.resolve("snapshot.records"));
    IOException refused = assertThrows(IOException.class, this::load);
    assertTrue(refused.getMessage().contains("starts at change 91"), refused.getMessage());
    assertTrue(refused.getMessage().contains("snapshot.records"), refused.getMessage());
  }

  private void load() throws IOException {
    try (Journal j = new Journal(dir)) {
      j.load();
    }
  }

  private void assertRefusedOrReported(List<JournalEntry> written, Path file) throws IOException {
    List<JournalEntry> loaded;
    long reported;
    try (Journal j = new Journal(dir)) {
      try {
        loaded = j.load();
      } catch (IOException refused) {
        assertTrue(
            String.valueOf(refused.getMessage()).contains(file.getFileName().toString()),
            "a refusal names the damaged file " + file.getFileName() + ": " + refused);
        System.out.println("damage outcome: " + file.getFileName() + ": refused: " + refused);
        return;
      }
      reported = j.damagedRecords();
    }
    // What was loaded is what was written, in order, less what went missing.
    int at = 0;
    for (JournalEntry e : loaded) {
      while (at < written.size() && !written.get(at).equals(e)) {
        at++;
      }
      assertTrue(
          at < written.size(), "loaded a change that was never written, or out of order: " + e);
      at++;
    }
    long lost = written.size() - loaded.size();
    assertEquals(lost, reported, "changes lost are exactly the changes reported lost");
    System.out.println(
        "damage outcome: " + file.getFileName() + ": " + lost + " changes lost, reported");
  }

  private Path lastSegment() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().matches("journal-\\d+\\.log"))
          .sorted()
          .reduce((a, b) -> b)
          .orElseThrow();
    }
  }

  private static void flip(Path file, long at) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      assertEquals(1, ch.read(b, at), "a byte at " + at + " of " + file);
      b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
      ch.write(b, at);
    }
  }

  private static void cut(Path file, long length) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(length);
    }
  }
}
