package org.netweather.runtime.recordlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Recovery keeps exactly the whole records: random records are written, then a copy of the segment
 * file is cut at every byte offset (or has one byte flipped) and opened again.
 */
class RecordLogPropertyTest {
  private static final String SEGMENT = "seg-00000000000000000001.log";
  // A small read buffer, so the large records also exercise the buffer growing.
  private static final RecordLog.Options OPTIONS =
      RecordLog.Options.named("seg-").withSync(SyncPolicy.NEVER).withReadBufferBytes(256);

  @TempDir Path tmp;

  /** Sizes 0 and small, medium, and larger than the read buffer. */
  static List<byte[]> randomRecords(Random rnd, int n) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double kind = rnd.nextDouble();
      int size =
          kind < 0.15
              ? 0
              : kind < 0.5
                  ? 1 + rnd.nextInt(20)
                  : kind < 0.85 ? 21 + rnd.nextInt(400) : 600 + rnd.nextInt(1400);
      byte[] b = new byte[size];
      rnd.nextBytes(b);
      out.add(b);
    }
    // Every run holds at least one empty record and one larger than the read buffer.
    out.set(rnd.nextInt(n), new byte[0]);
    byte[] large = new byte[1500];
    rnd.nextBytes(large);
    out.set(rnd.nextInt(n), large);
    return out;
  }

  /** Writes {@code records} as a fresh log and returns its one segment file's bytes. */
  private byte[] written(List<byte[]> records) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("original"));
    try (RecordLog log = RecordLog.open(dir, OPTIONS)) {
      for (byte[] r : records) {
        log.append(r);
      }
    }
    return Files.readAllBytes(dir.resolve(SEGMENT));
  }

  private static List<byte[]> readAll(RecordLog log) throws IOException {
    List<byte[]> out = new ArrayList<>();
    RecordReader r = log.read(log.firstNumber());
    while (r.next()) {
      assertEquals(out.size() + 1, r.number());
      out.add(r.bytes());
    }
    return out;
  }

  private static void assertRecords(List<byte[]> expected, List<byte[]> actual, String where) {
    assertEquals(expected.size(), actual.size(), where + ": record count");
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), where + ": record " + (i + 1));
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void open_cutAtEveryOffset_keepsExactlyTheWholeRecordsBeforeTheCut_andAppendsAfterThem(long seed)
      throws IOException {
    Random rnd = new Random(seed);
    List<byte[]> records = randomRecords(rnd, 20);
    byte[] file = written(records);
    long[] ends = new long[records.size()];
    long end = 0;
    for (int i = 0; i < records.size(); i++) {
      end += RecordFile.HEADER + records.get(i).length;
      ends[i] = end;
    }
    assertEquals(end, file.length);
    byte[] after = {42, 43, 44};

    for (int cut = 0; cut <= file.length; cut++) {
      // A fresh directory each time: rewriting one file in place makes some file systems flush.
      Path copy = Files.createDirectory(tmp.resolve("cut-" + cut));
      Files.write(copy.resolve(SEGMENT), Arrays.copyOf(file, cut));
      int whole = 0;
      while (whole < ends.length && ends[whole] <= cut) {
        whole++;
      }
      List<byte[]> expected = new ArrayList<>(records.subList(0, whole));
      String where = "cut at " + cut + " of " + file.length;

      try (RecordLog log = RecordLog.open(copy, OPTIONS)) {
        assertRecords(expected, readAll(log), where);
        assertEquals(whole == 0 ? 0 : ends[whole - 1], log.sizeBytes(), where);
        assertEquals(cut - log.sizeBytes(), log.truncatedBytes(), where);
        assertEquals(whole + 1, log.append(after), where);
      }
      expected.add(after);
      try (RecordLog log = RecordLog.open(copy, OPTIONS)) {
        assertRecords(expected, readAll(log), where + ", reopened after an append");
        assertEquals(0, log.truncatedBytes(), where);
      }
      Files.delete(copy.resolve(SEGMENT));
      Files.delete(copy);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {4, 5})
  void open_oneByteFlippedInARecord_skipsThatRecordOnly_orCutsItAsATornTailWhenLast(long seed)
      throws IOException {
    Random rnd = new Random(seed);
    List<byte[]> records = randomRecords(rnd, 20);
    byte[] file = written(records);
    long start = 0;
    for (int k = 0; k < records.size(); k++) {
      Path copy = Files.createDirectory(tmp.resolve("flip-" + k));
      int frame = RecordFile.HEADER + records.get(k).length;
      byte[] damaged = file.clone();
      int at = (int) start + rnd.nextInt(frame);
      damaged[at] ^= (byte) (1 + rnd.nextInt(255));
      Files.write(copy.resolve(SEGMENT), damaged);
      boolean last = k == records.size() - 1;

      try (RecordLog log = RecordLog.open(copy, OPTIONS)) {
        String where = "byte " + at + " flipped, in record " + (k + 1);
        List<byte[]> expected = new ArrayList<>(records);
        expected.remove(k);
        assertRecords(expected, readAll(log), where);
        assertEquals(file.length - frame, log.sizeBytes(), where);
        if (last) {
          // Nothing valid follows: the same as a write cut short.
          assertEquals(List.of(), log.damage(), where);
          assertEquals(frame, log.truncatedBytes(), where);
        } else {
          assertEquals(1, log.damage().size(), where);
          Damage d = log.damage().get(0);
          assertEquals(start, d.offset(), where);
          assertEquals(frame, d.bytes(), where);
          assertEquals(k + 1, d.firstLost(), where);
          assertEquals(1, d.lostRecords(), where);
          // The file as found is kept whole.
          assertArrayEquals(damaged, Files.readAllBytes(d.keptIn()), where);
          assertEquals(0, log.truncatedBytes(), where);
        }
        assertEquals(records.size(), log.nextNumber(), where);
      }
      start += frame;
    }
  }
}
