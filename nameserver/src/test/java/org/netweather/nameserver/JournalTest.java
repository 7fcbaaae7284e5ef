package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.nameserver.JournalEntry.Assigned;
import org.netweather.nameserver.JournalEntry.Renewed;
import org.netweather.nameserver.JournalEntry.Unregistered;

class JournalTest {
  @TempDir Path dir;

  private List<String> journalSegments() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("journal-"))
          .sorted()
          .toList();
    }
  }

  @Test
  void load_afterAppendsWithoutCompaction_replaysThemInOrder() throws IOException {
    List<JournalEntry> changes =
        List.of(
            new Assigned("cpu:a", "memory@m1", 5),
            new Renewed("lease-1", 99),
            new Unregistered("sensor@a"));
    try (Journal j = new Journal(dir)) {
      assertEquals(List.of(), j.load());
      j.append(changes.subList(0, 2), true);
      j.append(changes.subList(2, 3), true);
      assertEquals(3, j.journalFrames());
    }

    try (Journal j = new Journal(dir)) {
      assertEquals(changes, j.load());
      assertEquals(3, j.journalFrames());
    }
  }

  @Test
  void compact_replacesSnapshotAndDropsOldJournal_laterChangesFollowIt() throws IOException {
    try (Journal j = new Journal(dir)) {
      j.load();
      j.append(List.of(new Assigned("cpu:a", "memory@m1", 5), new Unregistered("x")), true);
      j.compact(List.of(new Assigned("cpu:a", "memory@m1", 5)));
      j.append(List.of(new Renewed("lease-1", 99)), true);
      assertEquals(1, j.journalFrames());
      assertEquals(List.of("journal-00000000000000000003.log"), journalSegments());
    }

    try (Journal j = new Journal(dir)) {
      assertEquals(
          List.of(new Assigned("cpu:a", "memory@m1", 5), new Renewed("lease-1", 99)), j.load());
    }
  }

  @Test
  void load_tornLastRecord_keepsEverythingBeforeIt() throws IOException {
    try (Journal j = new Journal(dir)) {
      j.load();
      j.append(List.of(new Unregistered("a"), new Unregistered("b")), true);
    }
    Path last = dir.resolve(journalSegments().get(journalSegments().size() - 1));
    long good = Files.size(last);
    Files.write(last, new byte[] {0, 0, 0, 40, 7, 7, 7, 7, 3, 0}, StandardOpenOption.APPEND);

    try (Journal j = new Journal(dir)) {
      assertEquals(List.of(new Unregistered("a"), new Unregistered("b")), j.load());
      assertEquals(good, Files.size(last));
      j.append(List.of(new Unregistered("c")), true);
    }
    try (Journal j = new Journal(dir)) {
      assertEquals(3, j.load().size());
    }
  }

  /** Issue 29: one flipped byte mid-way dropped every change after it, as if a torn tail. */
  @Test
  void load_byteFlippedMidWay_keepsTheChangesAfterIt_andCountsTheSkipped() throws IOException {
    List<JournalEntry> changes = new java.util.ArrayList<>();
    for (int i = 0; i < 200; i++) {
      changes.add(new Assigned("cpu.availability:host" + i, "memory@m1", i));
    }
    try (Journal j = new Journal(dir)) {
      j.load();
      j.append(changes, true);
    }
    Path seg = dir.resolve(journalSegments().get(0));
    long size = Files.size(seg);
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {(byte) 0xA5}), size / 2);
    }

    try (Journal j = new Journal(dir)) {
      List<JournalEntry> loaded = j.load();
      assertEquals(199, loaded.size());
      assertEquals(1, j.damagedRecords());
      assertTrue(j.damagedBytes() > 0);
      assertEquals(changes.get(199), loaded.get(198));
      List<JournalEntry> missing = new java.util.ArrayList<>(changes);
      missing.removeAll(loaded);
      assertEquals(1, missing.size());
      j.append(List.of(new Unregistered("after")), true);
    }
    assertTrue(Files.exists(seg.resolveSibling(seg.getFileName() + ".damaged")));
    try (Journal j = new Journal(dir)) {
      assertEquals(200, j.load().size());
      assertEquals(0, j.damagedRecords());
    }
  }

  @Test
  void load_truncatedMidRecord_isATornTail_notDamage() throws IOException {
    try (Journal j = new Journal(dir)) {
      j.load();
      j.append(List.of(new Unregistered("a"), new Unregistered("b")), true);
      // Written but never synced, so never acknowledged: a crash may tear it.
      j.append(List.of(new Unregistered("c")), false);
    }
    Path seg = dir.resolve(journalSegments().get(0));
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(Files.size(seg) - 3);
    }

    try (Journal j = new Journal(dir)) {
      assertEquals(List.of(new Unregistered("a"), new Unregistered("b")), j.load());
      assertEquals(0, j.damagedRecords());
    }
    assertFalse(Files.exists(seg.resolveSibling(seg.getFileName() + ".damaged")));
  }
}
