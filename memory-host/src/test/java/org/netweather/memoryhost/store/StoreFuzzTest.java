package org.netweather.memoryhost.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * What the memory-host reads back from its files: point-log records, Gorilla chunks, stored heads
 * and the head checkpoint. Each either decodes or throws its documented exception (never an index
 * error, and never an allocation sized by a damaged length field), and what an encoder writes
 * decodes to what it was given. Seeds in {@code StoreFuzzTestInputs/}; {@code benchmarks/fuzz}
 * fuzzes longer.
 */
class StoreFuzzTest {
  private static Path dir;

  @BeforeAll
  static void makeDir() throws IOException {
    dir = Files.createTempDirectory("store-fuzz");
  }

  @AfterAll
  static void removeDir() throws IOException {
    Files.deleteIfExists(dir.resolve(HeadCheckpoint.FILE));
    Files.deleteIfExists(dir);
  }

  private record Point(long id, long time, double value) {}

  /** Points drawn from the input: 8 bytes of time, 8 of value, the id from the time's low bits. */
  private static PointBuffer points(byte[] data) {
    ByteBuffer in = ByteBuffer.wrap(data);
    PointBuffer p = new PointBuffer(data.length / 16);
    while (in.remaining() >= 16) {
      p.add(in.getLong(), in.getDouble());
    }
    return p;
  }

  @FuzzTest
  void pointLog(byte[] data) {
    List<Point> read = new ArrayList<>();
    try {
      PointLog.decode(data, (id, time, value) -> read.add(new Point(id, time, value)));
      assertTrue(read.size() <= data.length / 9, "a point takes at least 9 bytes");
    } catch (IllegalArgumentException expected) {
      // a record cut short or malformed
    }
    // Encoding: two series, the input's points split between them, read back in order.
    PointBuffer all = points(data);
    PointBuffer first = new PointBuffer(all.size);
    PointBuffer second = new PointBuffer(all.size);
    List<Point> written = new ArrayList<>();
    for (int i = 0; i < all.size; i++) {
      (i % 2 == 0 ? first : second).add(all.times[i], all.values[i]);
    }
    for (int i = 0; i < first.size; i++) {
      written.add(new Point(7, first.times[i], first.values[i]));
    }
    for (int i = 0; i < second.size; i++) {
      written.add(new Point(Long.MAX_VALUE, second.times[i], second.values[i]));
    }
    PointLog log = new PointLog();
    log.add(7, first);
    log.add(Long.MAX_VALUE, second);
    List<Point> decoded = new ArrayList<>();
    PointLog.decode(
        log.toByteArray(), (id, time, value) -> decoded.add(new Point(id, time, value)));
    assertSameBits(written, decoded);
  }

  @FuzzTest
  void chunk(byte[] data) {
    try {
      // As the store does: sized by the chunk's own count, then decoded.
      PointBuffer p = new PointBuffer(Chunk.count(data));
      Chunk.decodeInto(data, p);
      assertEquals(Chunk.count(data), p.size);
    } catch (IllegalStateException expected) {
      // malformed chunk
    }
    PointBuffer in = points(data);
    in.sort();
    if (in.size == 0) {
      return;
    }
    byte[] chunk = Chunk.encode(in.times, in.values, 0, in.size);
    assertEquals(in.size, Chunk.count(chunk));
    assertEquals(in.times[0], Chunk.minTime(chunk));
    assertEquals(in.times[in.size - 1], Chunk.maxTime(chunk));
    PointBuffer out = new PointBuffer(Chunk.count(chunk));
    Chunk.decodeInto(chunk, out);
    assertEquals(in.size, out.size);
    for (int i = 0; i < in.size; i++) {
      assertEquals(in.times[i], out.times[i]);
      assertEquals(
          Double.doubleToRawLongBits(in.values[i]), Double.doubleToRawLongBits(out.values[i]));
    }
  }

  @FuzzTest
  void head(byte[] data) {
    try {
      GorillaEncoder head = SeriesDb.decodeHead(data);
      GorillaDecoder d = head.decoder();
      int n = 0;
      while (d.hasNext()) {
        d.next();
        n++;
      }
      assertEquals(head.count(), n);
      head.add(head.maxTime(), 1.0); // a resumed head takes new points
    } catch (IllegalArgumentException | IllegalStateException expected) {
      // malformed head
    }
    // Points in any order (a back-dated point too): a head stored and read back decodes the same.
    PointBuffer in = points(data);
    GorillaEncoder head = new GorillaEncoder();
    for (int i = 0; i < in.size; i++) {
      head.add(in.times[i], in.values[i]);
    }
    GorillaEncoder back = SeriesDb.decodeHead(SeriesDb.encodeHead(head, 42));
    assertEquals(head.count(), back.count());
    GorillaDecoder d = back.decoder();
    for (int i = 0; i < in.size; i++) {
      d.next();
      assertEquals(in.times[i], d.time());
      assertEquals(Double.doubleToRawLongBits(in.values[i]), Double.doubleToRawLongBits(d.value()));
    }
    assertTrue(!d.hasNext());
  }

  @FuzzTest
  void checkpoint(byte[] data) throws IOException {
    Path file = Files.write(dir.resolve(HeadCheckpoint.FILE), data);
    List<Long> ids = new ArrayList<>();
    try {
      // As the store's open does: each head decoded as it is read.
      long n =
          HeadCheckpoint.read(
              dir,
              (id, stored) -> {
                SeriesDb.decodeHead(stored);
                ids.add(id);
              });
      assertEquals(ids.size(), n);
    } catch (IOException e) {
      assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }
    // A checkpoint written by the writer reads back whole.
    PointBuffer in = points(data);
    List<byte[]> heads = new ArrayList<>();
    try (HeadCheckpoint.Writer w = new HeadCheckpoint.Writer(dir)) {
      for (int i = 0; i < in.size; i++) {
        GorillaEncoder h = new GorillaEncoder();
        h.add(in.times[i], in.values[i]);
        byte[] stored = SeriesDb.encodeHead(h, i);
        heads.add(stored);
        w.add(i, stored);
      }
      w.commit();
    }
    List<byte[]> back = new ArrayList<>();
    assertEquals(heads.size(), HeadCheckpoint.read(dir, (id, stored) -> back.add(stored)));
    for (int i = 0; i < heads.size(); i++) {
      assertTrue(java.util.Arrays.equals(heads.get(i), back.get(i)), "head " + i);
    }
  }

  private static void assertSameBits(List<Point> expected, List<Point> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      Point e = expected.get(i);
      Point a = actual.get(i);
      assertEquals(e.id(), a.id());
      assertEquals(e.time(), a.time());
      assertEquals(Double.doubleToRawLongBits(e.value()), Double.doubleToRawLongBits(a.value()));
    }
  }
}
