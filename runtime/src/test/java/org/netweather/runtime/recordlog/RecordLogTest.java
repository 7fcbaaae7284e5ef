package org.netweather.runtime.recordlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordLogTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> strings(RecordReader r) throws IOException {
    List<String> out = new ArrayList<>();
    while (r.next()) {
      out.add(r.number() + "=" + new String(r.bytes(), StandardCharsets.UTF_8));
    }
    return out;
  }

  private List<String> segmentFiles() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("j-"))
          .sorted()
          .toList();
    }
  }

  @Test
  void append_pastSegmentBytes_rotatesAndReadsAcrossSegmentsInOrder() throws IOException {
    RecordLog.Options small = RecordLog.Options.named("j-").withSegmentBytes(30);
    try (RecordLog log = RecordLog.open(dir, small)) {
      for (int i = 1; i <= 5; i++) {
        assertEquals(i, log.append(b("rec" + i))); // 11 bytes each: two per segment
      }
      assertEquals(
          List.of(
              "j-00000000000000000001.log",
              "j-00000000000000000003.log",
              "j-00000000000000000005.log"),
          segmentFiles());
      assertEquals(List.of("3=rec3", "4=rec4", "5=rec5"), strings(log.read(3)));
    }
    try (RecordLog log = RecordLog.open(dir, small)) {
      assertEquals(6, log.nextNumber());
      assertEquals(
          List.of(1L, 3L, 5L),
          log.segments().stream().map(RecordLog.SegmentInfo::firstNumber).toList());
      assertEquals(5, strings(log.read(1)).size());
    }
  }

  @Test
  void dropBefore_deletesOnlyWholeSegmentsBelow_andNumbersNeverRepeat() throws IOException {
    try (RecordLog log = RecordLog.open(dir, RecordLog.Options.named("j-"))) {
      log.append(List.of(b("a"), b("b")));
      long mark = log.roll();
      log.append(b("c"));
      long second = log.roll();

      assertEquals(0, log.dropBefore(2)); // record 2 is not below 2: the segment stays
      assertEquals(1, log.dropBefore(mark));
      assertEquals(3, mark);
      assertEquals(List.of("3=c"), strings(log.read(1)));
      assertEquals(1, log.dropBefore(Long.MAX_VALUE)); // never the active segment
      assertEquals(second, log.firstNumber());
      assertEquals(0, log.sizeBytes());
    }
    try (RecordLog log = RecordLog.open(dir, RecordLog.Options.named("j-"))) {
      assertEquals(4, log.append(b("d")));
    }
  }

  @Test
  void read_fromPosition_resumesWithoutTheRecordsBefore() throws IOException {
    try (RecordLog log = RecordLog.open(dir, RecordLog.Options.named("j-").withSegmentBytes(20))) {
      log.append(List.of(b("a"), b("b"), b("c")));
      log.append(b("d")); // a segment of its own
      RecordReader r = log.read(1);
      r.next();
      r.next();
      RecordLog.Position atB = r.position();
      RecordLog.SegmentInfo first = log.segments().get(0);

      assertEquals(List.of("2=b", "3=c", "4=d"), strings(log.read(atB)));
      assertEquals(List.of("4=d"), strings(log.read(first.end())));
      log.roll();
      log.dropBefore(4);
      assertEquals(List.of("4=d"), strings(log.read(atB))); // its segment is gone
    }
  }

  @Test
  void open_zeroFilledTail_isNotReadAsEmptyRecords() throws IOException {
    try (RecordLog log = RecordLog.open(dir, RecordLog.Options.named("j-"))) {
      log.append(b("kept"));
    }
    Path seg = dir.resolve("j-00000000000000000001.log");
    Files.write(seg, new byte[4096], StandardOpenOption.APPEND);

    try (RecordLog log = RecordLog.open(dir, RecordLog.Options.named("j-"))) {
      assertEquals(List.of("1=kept"), strings(log.read(1)));
      assertEquals(4096, log.truncatedBytes());
      assertEquals(RecordFile.HEADER + 4, Files.size(seg));
    }
  }

  @Test
  void append_recordOverMaximum_rejectedAndLogUnchanged() throws IOException {
    try (RecordLog log = RecordLog.open(dir, RecordLog.Options.named("j-").withMaxRecordBytes(8))) {
      assertThrows(IllegalArgumentException.class, () -> log.append(new byte[9]));
      assertEquals(1, log.append(new byte[8]));
      assertEquals(RecordFile.HEADER + 8, log.sizeBytes());
    }
  }

  @Test
  void recordFile_replaceAndReadWhole_roundTrip_andDamageIsAnError() throws IOException {
    Path snap = dir.resolve("state");
    RecordFile.replace(snap, List.of(b("x"), b(""), b("yz")));
    List<byte[]> back = RecordFile.readWhole(snap);
    assertEquals(3, back.size());
    assertArrayEquals(b("yz"), back.get(2));
    assertFalse(Files.exists(dir.resolve("state.tmp")));
    assertTrue(RecordFile.readWhole(dir.resolve("absent")).isEmpty());

    Files.write(snap, new byte[] {1}, StandardOpenOption.APPEND);
    IOException e = assertThrows(IOException.class, () -> RecordFile.readWhole(snap));
    assertTrue(e.getMessage().contains("damaged at byte"), e.getMessage());
  }

  @Test
  void recordFile_openAfterTornAppend_keepsPrefixAndAppendsBehindIt() throws IOException {
    Path f = dir.resolve("acks");
    try (RecordFile file = RecordFile.open(f, SyncPolicy.ALWAYS)) {
      file.append(List.of(b("one"), b("two")));
    }
    Files.write(f, new byte[] {0, 0, 0, 9, 1, 2}, StandardOpenOption.APPEND);
    try (RecordFile file = RecordFile.open(f, SyncPolicy.ALWAYS)) {
      assertEquals(6, file.truncatedBytes());
      file.append(b("three"));
    }
    try (RecordFile file = RecordFile.open(f, SyncPolicy.ALWAYS)) {
      assertEquals(
          List.of("one", "two", "three"),
          file.records().stream().map(x -> new String(x, StandardCharsets.UTF_8)).toList());
    }
  }
}
