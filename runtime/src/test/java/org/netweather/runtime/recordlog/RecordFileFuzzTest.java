package org.netweather.runtime.recordlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Record-log frames as a crash or a damaged disk leaves them: whatever a file holds, opening it
 * recovers every whole record and nothing else, never throws anything but {@link IOException}, and
 * the records it keeps are exactly what framing them again gives back. Seeds in {@code
 * RecordFileFuzzTestInputs/}; {@code benchmarks/fuzz} fuzzes longer.
 */
class RecordFileFuzzTest {
  // Small limits, so that the fuzzer reaches "length over the maximum" and window edges quickly.
  private static final int MAX_RECORD = 4096;
  private static final int READ_BUFFER = 64;
  private static Path dir;

  @BeforeAll
  static void makeDir() throws IOException {
    dir = Files.createTempDirectory("record-fuzz");
  }

  @AfterAll
  static void removeDir() throws IOException {
    clear();
    Files.deleteIfExists(dir);
  }

  private static void clear() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        if (!f.equals(dir)) {
          Files.delete(f);
        }
      }
    }
  }

  @FuzzTest
  void open(byte[] data) throws IOException {
    clear();
    Path file = Files.write(dir.resolve("f.log"), data);
    List<byte[]> whole = null;
    try {
      whole = RecordFile.readWhole(file);
    } catch (IOException e) {
      assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }
    List<byte[]> kept;
    try (RecordFile f = RecordFile.open(file, SyncPolicy.NEVER, MAX_RECORD, READ_BUFFER)) {
      kept = f.records();
      assertEquals(kept.size(), f.count());
      assertEquals(Frames.frameBytes(kept), f.size());
      assertEquals(Frames.frameBytes(kept), Files.size(file));
      if (whole != null) {
        assertSameRecords(whole, kept);
        assertTrue(f.damage().isEmpty());
        assertEquals(0, f.truncatedBytes());
      }
      // What was kept can be appended to: the file stays whole.
      f.append(new byte[] {42});
    }
    List<byte[]> again = RecordFile.readWhole(file);
    assertEquals(kept.size() + 1, again.size());
    assertSameRecords(kept, again.subList(0, kept.size()));
    // Framing the kept records again gives the same bytes as the recovered file.
    ByteBuffer reframed = ByteBuffer.allocate((int) Frames.frameBytes(again));
    for (byte[] r : again) {
      Frames.put(reframed, r);
    }
    assertArrayEquals(reframed.array(), Files.readAllBytes(file));
  }

  @FuzzTest
  void openLog(byte[] data) throws IOException {
    clear();
    // One segment holding the input, numbered by its records' first 8 bytes as the spool's are.
    Files.write(dir.resolve("seg-" + String.format("%020d", 1) + ".log"), data);
    RecordLog.Options options =
        RecordLog.Options.named("seg-")
            .withSync(SyncPolicy.NEVER)
            .withMaxRecordBytes(MAX_RECORD)
            .withReadBufferBytes(READ_BUFFER)
            .withNumbering(
                b -> {
                  if (b.remaining() < 8) {
                    throw new IllegalArgumentException("record of " + b.remaining() + " bytes");
                  }
                  return b.getLong(b.position());
                });
    List<byte[]> read = new ArrayList<>();
    try (RecordLog log = RecordLog.open(dir, options)) {
      RecordReader r = log.read(log.firstNumber());
      long previous = Long.MIN_VALUE;
      while (r.next()) {
        assertTrue(r.number() > previous, "numbers increase");
        previous = r.number();
        read.add(r.bytes());
      }
      long number = log.nextNumber();
      assertTrue(number > previous || read.isEmpty());
      assertEquals(number, log.append(ByteBuffer.allocate(8).putLong(number).array()));
    }
    // Reopening finds what the first open kept, and the record appended after it.
    try (RecordLog log = RecordLog.open(dir, options)) {
      List<byte[]> after = new ArrayList<>();
      RecordReader r = log.read(log.firstNumber());
      while (r.next()) {
        after.add(r.bytes());
      }
      assertEquals(read.size() + 1, after.size());
      assertSameRecords(read, after.subList(0, read.size()));
      assertTrue(log.damage().isEmpty(), "a recovered log is whole");
    }
  }

  private static void assertSameRecords(List<byte[]> expected, List<byte[]> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), "record " + i);
    }
  }
}
