package org.netweather.sensor.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A sensor's spool as a crash or a damaged disk leaves it: a segment and an acknowledgement log
 * holding anything. The spool opens or refuses with an {@link IOException}; one that opens hands
 * out its unacknowledged entries in order, takes new ones and forgets what is acknowledged. A
 * spooled measurement encodes and decodes to itself. Seeds in {@code SpoolFuzzTestInputs/}; {@code
 * benchmarks/fuzz} fuzzes longer.
 */
class SpoolFuzzTest {
  private static Path dir;

  @BeforeAll
  static void makeDir() throws IOException {
    dir = Files.createTempDirectory("spool-fuzz");
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
    // The first two bytes say where the segment ends and the acknowledgement log begins.
    int split = data.length < 2 ? data.length : 2 + (((data[0] & 0xff) << 8) | (data[1] & 0xff));
    split = Math.min(split, data.length);
    Files.write(
        dir.resolve("seg-" + String.format("%020d", 1) + ".log"),
        Arrays.copyOfRange(data, Math.min(2, data.length), split));
    if (split < data.length) {
      Files.write(dir.resolve("acks.log"), Arrays.copyOfRange(data, split, data.length));
    }
    Spool spool;
    try {
      spool = Spool.open(dir, SpoolOptions.defaults());
    } catch (IOException e) {
      return; // refused, saying why
    }
    try {
      List<SpoolEntry> pending = spool.unacknowledged(Integer.MAX_VALUE);
      assertEquals(spool.pending(), pending.size());
      long previous = 0;
      for (SpoolEntry e : pending) {
        assertTrue(e.seq() > previous, "entries in order");
        previous = e.seq();
      }
      long seq = spool.append("cpu.availability:alpha", 1_700_000_000_000L, 0.5);
      assertTrue(seq > previous);
      List<SpoolEntry> after = spool.unacknowledged(Integer.MAX_VALUE);
      assertEquals(pending.size() + 1, after.size());
      assertEquals(seq, after.get(after.size() - 1).seq());
      spool.acknowledge(after.stream().mapToLong(SpoolEntry::seq).toArray());
      assertEquals(0, spool.pending());
      assertTrue(spool.unacknowledged(Integer.MAX_VALUE).isEmpty());
    } finally {
      spool.close();
    }
    try (Spool reopened = Spool.open(dir, SpoolOptions.defaults())) {
      assertEquals(0, reopened.pending());
    }
  }

  @FuzzTest
  void codec(byte[] data) throws IOException {
    ByteBuffer payload = ByteBuffer.wrap(data);
    try {
      long number = SpoolCodec.numberOf(payload);
      SpoolEntry e = SpoolCodec.decode(number, payload);
      assertEquals(number, e.seq());
      assertEquals(0, payload.position(), "decoding leaves the payload as it was");
    } catch (IllegalArgumentException | IOException expected) {
      // shorter than a record
    }
    if (data.length >= 24) {
      ByteBuffer in = ByteBuffer.wrap(data);
      long seq = in.getLong();
      SpoolRecord r = new SpoolRecord("cpu.availability:alpha", in.getLong(), in.getDouble());
      SpoolEntry back = SpoolCodec.decode(seq, ByteBuffer.wrap(SpoolCodec.encode(seq, r)));
      assertEquals(new SpoolEntry(seq, r.series(), r.timestampMs(), r.value()), back);
    }
  }
}
