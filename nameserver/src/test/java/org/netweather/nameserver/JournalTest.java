package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
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
}
