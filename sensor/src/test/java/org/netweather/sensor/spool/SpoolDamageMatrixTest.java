package org.netweather.sensor.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 29, item 2: a sensor's spool segments and ack log, damaged in each way, then the spool
 * opened again. Two outcomes are allowed: the open refuses, naming the damaged file; or it opens,
 * every measurement it still offers for delivery is the one spooled under that number, and the
 * undelivered measurements it no longer offers are exactly those it counts as dropped ({@code
 * spool_dropped}). A measurement delivered already may be offered again (a lost acknowledgement):
 * memory-hosts keep the first of duplicate points.
 */
class SpoolDamageMatrixTest {
  private static final SpoolOptions OPTIONS = new SpoolOptions(64 * 1024, 4 * 1024);
  private static final int SPOOLED = 200;
  private static final int DELIVERED = 60;

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

  private static String series(long seq) {
    return "cpu.availability:host-" + (seq % 7);
  }

  /** Spools measurements ten to a sync, and delivers the oldest. */
  private void fill() throws IOException {
    try (Spool spool = Spool.open(dir, OPTIONS)) {
      for (long seq = 1; seq <= SPOOLED; seq += 10) {
        List<SpoolRecord> batch = new ArrayList<>();
        for (long s = seq; s < seq + 10; s++) {
          batch.add(new SpoolRecord(series(s), 1000 * s, s / 10.0));
        }
        assertEquals(seq, spool.append(batch));
      }
      for (long seq = 1; seq <= DELIVERED; seq += 10) {
        long[] batch = new long[10];
        for (int i = 0; i < 10; i++) {
          batch[i] = seq + i;
        }
        spool.acknowledge(batch);
      }
    }
  }

  private List<Path> segments() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().matches("seg-\\d+\\.log")).sorted().toList();
    }
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void lastSegment(Damage damage) throws IOException {
    fill();
    Path file = segments().get(segments().size() - 1);
    damage.applyTo(file);
    assertRefusedOrCounted(file);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void earlierSegment(Damage damage) throws IOException {
    fill();
    assertTrue(segments().size() >= 3, "several segments: " + segments());
    // The oldest one left holds delivered and undelivered measurements.
    Path file = segments().get(0);
    damage.applyTo(file);
    assertRefusedOrCounted(file);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void ackLog(Damage damage) throws IOException {
    fill();
    Path file = dir.resolve("acks.log");
    damage.applyTo(file);
    assertRefusedOrCounted(file);
  }

  private void assertRefusedOrCounted(Path file) throws IOException {
    Spool spool;
    try {
      spool = Spool.open(dir, OPTIONS);
    } catch (IOException refused) {
      assertTrue(
          String.valueOf(refused.getMessage()).contains(file.getFileName().toString()),
          "a refusal names the damaged file " + file.getFileName() + ": " + refused);
      System.out.println("damage outcome: " + file.getFileName() + ": refused: " + refused);
      return;
    }
    Set<Long> offered = new HashSet<>();
    try (spool) {
      int again = 0;
      for (SpoolEntry e : spool.unacknowledged(10 * SPOOLED)) {
        long seq = e.seq();
        assertEquals(
            new SpoolEntry(seq, series(seq), 1000 * seq, seq / 10.0),
            e,
            "an entry offered for delivery is the measurement spooled under its number");
        assertTrue(offered.add(seq), "offered once: " + seq);
        if (seq <= DELIVERED) {
          again++;
        }
      }
      long missing = 0;
      for (long seq = DELIVERED + 1; seq <= SPOOLED; seq++) {
        if (!offered.contains(seq)) {
          missing++;
        }
      }
      assertEquals(
          missing, spool.dropped(), "undelivered measurements lost are exactly those counted");
      // Numbers go on after every number used before: an acknowledgement of an old number never
      // covers a new measurement.
      long next = spool.append("cpu.availability:after", 1, 1);
      assertTrue(next > SPOOLED, "a new measurement gets a new number: " + next);
      assertTrue(
          spool.unacknowledged(10 * SPOOLED).stream().anyMatch(e -> e.seq() == next),
          "the new measurement waits for delivery");
      System.out.println(
          "damage outcome: "
              + file.getFileName()
              + ": "
              + missing
              + " undelivered lost and counted as dropped, "
              + again
              + " delivered ones offered again");
    }
    // Counted once: opened again, the spool offers the same and counts nothing more.
    try (Spool again = Spool.open(dir, OPTIONS)) {
      assertEquals(0, again.dropped(), "a loss is counted by the open that finds it, once");
      Set<Long> still = new HashSet<>();
      for (SpoolEntry e : again.unacknowledged(10 * SPOOLED)) {
        still.add(e.seq());
      }
      assertTrue(still.containsAll(offered), "nothing more is lost");
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
