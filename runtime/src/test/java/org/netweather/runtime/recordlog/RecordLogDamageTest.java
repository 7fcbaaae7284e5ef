package org.netweather.runtime.recordlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage in the middle of a log is told from a torn tail: the records after it are kept (with their
 * numbers, when they carry them), the skip is reported, and the file as found is kept.
 */
class RecordLogDamageTest {
  // Records carry their number in their first 8 bytes, as the sensor's spool does.
  private static final RecordLog.Options NUMBERED =
      RecordLog.Options.named("seg-")
          .withSync(SyncPolicy.NEVER)
          .withSegmentBytes(10 * (RecordFile.HEADER + 24))
          .withNumbering(b -> b.getLong(0));

  @TempDir Path dir;

  private static byte[] record(long n) {
    return ByteBuffer.allocate(24).putLong(n).putLong(n * 7).putLong(-n).array();
  }

  /** Writes records 1..n, ten to a segment. */
  private void writeNumbered(int n) throws IOException {
    try (RecordLog log = RecordLog.open(dir, NUMBERED)) {
      for (long i = 1; i <= n; i++) {
        assertEquals(i, log.append(record(i)));
      }
    }
  }

  private static List<Long> numbersRead(RecordLog log) throws IOException {
    List<Long> out = new ArrayList<>();
    RecordReader r = log.read(log.firstNumber());
    while (r.next()) {
      // The number the log gives a record is the one the record carries.
      assertEquals(r.number(), r.payload().getLong(0));
      out.add(r.number());
    }
    return out;
  }

  private static void flip(Path file, long at) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, at);
      b.put(0, (byte) (b.get(0) ^ 0x5A)).rewind();
      ch.write(b, at);
    }
  }

  private Path segment(long first) {
    return RecordLog.segmentPath(dir, "seg-", first);
  }

  private static List<Long> range(long from, long to, long... without) {
    List<Long> out = new ArrayList<>();
    outer:
    for (long i = from; i <= to; i++) {
      for (long w : without) {
        if (w == i) {
          continue outer;
        }
      }
      out.add(i);
    }
    return out;
  }

  @Test
  void open_byteFlippedMidSegment_keepsNumbersOfEveryRecordAfterIt() throws IOException {
    writeNumbered(30);
    int frame = RecordFile.HEADER + 24;
    // Record 14 is the 4th of segment 11.
    long at = 3L * frame + RecordFile.HEADER + 5;
    byte[] found = Files.readAllBytes(segment(11));
    flip(segment(11), at);

    try (RecordLog log = RecordLog.open(dir, NUMBERED)) {
      assertEquals(range(1, 30, 14), numbersRead(log));
      assertEquals(1, log.damage().size());
      Damage d = log.damage().get(0);
      assertEquals(segment(11), d.file());
      assertEquals(14, d.firstLost());
      assertEquals(1, d.lostRecords());
      assertTrue(d.exact());
      assertEquals(3L * frame, d.offset());
      assertEquals(frame, d.bytes());
      found[(int) at] ^= 0x5A;
      assertArrayEquals(found, Files.readAllBytes(d.keptIn()));
      assertEquals(0, log.truncatedBytes());
      assertEquals(31, log.append(record(31)));
    }
    try (RecordLog log = RecordLog.open(dir, NUMBERED)) {
      assertEquals(range(1, 31, 14), numbersRead(log));
      assertEquals(List.of(), log.damage(), "the repaired log opens clean");
    }
  }

  @Test
  void open_lengthFieldDamaged_searchesForTheNextFrame() throws IOException {
    writeNumbered(30);
    int frame = RecordFile.HEADER + 24;
    // The length of record 25 (the 5th of the last segment) claims far more than is there.
    flip(segment(21), 4L * frame);

    try (RecordLog log = RecordLog.open(dir, NUMBERED)) {
      assertEquals(range(1, 30, 25), numbersRead(log));
      assertEquals(1, log.damage().get(0).lostRecords());
      assertEquals(31, log.nextNumber());
    }
  }

  @Test
  void open_severalRecordsDamaged_countsEachLostNumber() throws IOException {
    writeNumbered(30);
    int frame = RecordFile.HEADER + 24;
    for (int k = 2; k <= 4; k++) {
      flip(segment(11), (long) k * frame + RecordFile.HEADER + 1);
    }
    flip(segment(11), 7L * frame + 2);

    try (RecordLog log = RecordLog.open(dir, NUMBERED)) {
      assertEquals(range(1, 30, 13, 14, 15, 18), numbersRead(log));
      assertEquals(4, Damage.totals(log.damage())[0]);
    }
  }

  @Test
  void open_segmentBeforeTheLastCutShort_isDamageCountedFromTheNextSegmentsNumber()
      throws IOException {
    writeNumbered(30);
    int frame = RecordFile.HEADER + 24;
    try (FileChannel ch = FileChannel.open(segment(11), StandardOpenOption.WRITE)) {
      ch.truncate(6L * frame + 9);
    }

    try (RecordLog log = RecordLog.open(dir, NUMBERED)) {
      assertEquals(range(1, 30, 17, 18, 19, 20), numbersRead(log));
      Damage d = log.damage().get(0);
      assertEquals(17, d.firstLost());
      assertEquals(4, d.lostRecords());
      assertTrue(d.exact());
      assertEquals(9, d.bytes());
      assertEquals(0, log.truncatedBytes());
    }
  }

  @Test
  void open_lastSegmentCutShort_isATornTail_noDamage() throws IOException {
    writeNumbered(30);
    int frame = RecordFile.HEADER + 24;
    try (FileChannel ch = FileChannel.open(segment(21), StandardOpenOption.WRITE)) {
      ch.truncate(6L * frame + 9);
    }

    try (RecordLog log = RecordLog.open(dir, NUMBERED)) {
      assertEquals(range(1, 26), numbersRead(log));
      assertEquals(List.of(), log.damage());
      assertEquals(9, log.truncatedBytes());
      assertFalse(Files.exists(segment(21).resolveSibling(segment(21).getFileName() + ".damaged")));
    }
  }

  @Test
  void open_unnumberedLog_keepsEveryRecordAfterTheDamageInOrder() throws IOException {
    RecordLog.Options journal = RecordLog.Options.named("j-").withSync(SyncPolicy.NEVER);
    try (RecordLog log = RecordLog.open(dir, journal)) {
      for (long i = 1; i <= 50; i++) {
        log.append(record(i));
      }
    }
    Path seg = RecordLog.segmentPath(dir, "j-", 1);
    flip(seg, 20L * (RecordFile.HEADER + 24) + RecordFile.HEADER + 10);

    try (RecordLog log = RecordLog.open(dir, journal)) {
      List<Long> carried = new ArrayList<>();
      RecordReader r = log.read(log.firstNumber());
      while (r.next()) {
        carried.add(r.payload().getLong(0));
      }
      assertEquals(range(1, 50, 21), carried);
      assertEquals(1, log.damage().size());
      assertEquals("1 record", log.damage().get(0).lostPhrase());
    }
  }

  @Test
  void recordFile_damagedInTheMiddle_keepsTheRecordsAfterIt() throws IOException {
    Path f = dir.resolve("acks.log");
    try (RecordFile file = RecordFile.open(f, SyncPolicy.NEVER)) {
      for (long i = 1; i <= 10; i++) {
        file.append(record(i));
      }
    }
    flip(f, 4L * (RecordFile.HEADER + 24) + 2);

    try (RecordFile file = RecordFile.open(f, SyncPolicy.NEVER)) {
      List<Long> kept = new ArrayList<>();
      for (byte[] r : file.records()) {
        kept.add(ByteBuffer.wrap(r).getLong(0));
      }
      assertEquals(range(1, 10, 5), kept);
      assertEquals(1, file.damage().size());
      assertEquals(4, file.damage().get(0).firstLost());
      assertTrue(Files.exists(file.damage().get(0).keptIn()));
      file.append(record(11));
    }
    try (RecordFile file = RecordFile.open(f, SyncPolicy.NEVER)) {
      assertEquals(10, file.count());
      assertEquals(List.of(), file.damage());
    }
  }
}
