package org.netweather.sensor.spool;

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
import org.netweather.runtime.recordlog.RecordFile;

class SpoolTest {

  @TempDir Path dir;

  private static final SpoolOptions SMALL = new SpoolOptions(8 * 1024, 2 * 1024);

  private static long[] seqs(List<SpoolEntry> entries) {
    return entries.stream().mapToLong(SpoolEntry::seq).toArray();
  }

  private List<Path> segmentFiles() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith("seg-")).sorted().toList();
    }
  }

  @Test
  void append_thenUnacknowledged_returnsEntriesOldestFirst() throws IOException {
    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      long first = spool.append("cpu.availability:alpha", 1000, 0.5);
      spool.append(
          List.of(
              new SpoolRecord("memory.free:alpha", 1000, 812.5),
              new SpoolRecord("tcp.bandwidth:alpha->beta", 1001, 93.1)));

      List<SpoolEntry> all = spool.unacknowledged(10);

      assertEquals(1, first);
      assertEquals(
          List.of(
              new SpoolEntry(1, "cpu.availability:alpha", 1000, 0.5),
              new SpoolEntry(2, "memory.free:alpha", 1000, 812.5),
              new SpoolEntry(3, "tcp.bandwidth:alpha->beta", 1001, 93.1)),
          all);
      assertEquals(3, spool.pending());
      assertEquals(2, spool.unacknowledged(2).size());
    }
  }

  @Test
  void acknowledge_someEntries_onlyOthersRemainUnacknowledged() throws IOException {
    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      for (int i = 0; i < 5; i++) {
        spool.append("s:a", i, i);
      }

      spool.acknowledge(1, 2, 4);

      assertEquals(
          List.of(3L, 5L),
          List.of(seqs(spool.unacknowledged(10))[0], seqs(spool.unacknowledged(10))[1]));
      assertEquals(2, spool.pending());
    }
  }

  @Test
  void acknowledge_unknownAndRepeatedNumbers_ignored() throws IOException {
    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      spool.append("s:a", 1, 1);

      spool.acknowledge(1, 1, 99, -5);

      assertEquals(0, spool.pending());
      assertEquals(List.of(), spool.unacknowledged(10));
    }
  }

  @Test
  void unacknowledged_seriesFilter_skipsOtherSeriesWithoutBlocking() throws IOException {
    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      for (int i = 0; i < 50; i++) {
        spool.append("down:a", i, i);
      }
      spool.append("up:a", 100, 1);

      List<SpoolEntry> up = spool.unacknowledged(10, s -> s.startsWith("up:"));

      assertEquals(1, up.size());
      assertEquals(51, up.get(0).seq());
    }
  }

  @Test
  void open_afterClose_keepsUnacknowledgedAndAcknowledgements() throws IOException {
    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      for (int i = 1; i <= 4; i++) {
        spool.append("s:a", i, i * 1.5);
      }
      spool.acknowledge(1, 3);
    }

    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      assertEquals(
          List.of(new SpoolEntry(2, "s:a", 2, 3.0), new SpoolEntry(4, "s:a", 4, 6.0)),
          spool.unacknowledged(10));
      assertEquals(5, spool.append("s:a", 5, 7.5));
    }
  }

  @Test
  void open_abandonedWithoutClose_keepsEverythingAppended() throws IOException {
    Spool crashed = Spool.open(dir, SpoolOptions.defaults());
    for (int i = 1; i <= 3; i++) {
      crashed.append("s:a", i, i);
    }
    crashed.acknowledge(2);
    // No close(): as if the process died here.

    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      assertEquals(
          List.of(1L, 3L),
          List.of(seqs(spool.unacknowledged(10))[0], seqs(spool.unacknowledged(10))[1]));
    }
  }

  @Test
  void open_tornTailInSegment_keepsValidPrefixAndTruncates() throws IOException {
    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      spool.append("s:a", 1, 1);
      spool.append("s:a", 2, 2);
    }
    Path seg = segmentFiles().get(0);
    long good = Files.size(seg);
    // Half a record: a plausible length and crc, then the write stopped.
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.APPEND)) {
      ch.write(ByteBuffer.wrap(new byte[] {0, 0, 0, 29, 1, 2, 3, 4, 0, 0, 0}));
    }

    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      assertEquals(2, spool.unacknowledged(10).size());
      assertEquals(good, Files.size(seg));
      assertEquals(3, spool.append("s:a", 3, 3));
      assertEquals(3, spool.unacknowledged(10).size());
    }
  }

  @Test
  void open_corruptedRecord_skipsItOnly_andCountsItDropped() throws IOException {
    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      for (int i = 1; i <= 3; i++) {
        spool.append("s:a", i, i);
      }
    }
    Path seg = segmentFiles().get(0);
    long recordSize = Files.size(seg) / 3;
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      // Flip a byte in the second record's value.
      ch.write(ByteBuffer.wrap(new byte[] {0x55}), recordSize + 30);
    }

    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      assertEquals(List.of(1L, 3L), seqsOf(spool.unacknowledged(10)));
      assertEquals(1, spool.dropped());
      assertEquals(1, spool.lostToDamage());
      assertEquals(2, spool.pending());
      assertEquals(4, spool.append("s:a", 9, 9));
    }
  }

  private static List<Long> seqsOf(List<SpoolEntry> entries) {
    return entries.stream().map(SpoolEntry::seq).toList();
  }

  /** Issue 29: a byte flipped in the delivered part of a segment lost everything after it. */
  @Test
  void open_byteFlippedInDeliveredPart_keepsEveryUndeliveredMeasurement() throws IOException {
    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      for (int i = 1; i <= 100; i++) {
        spool.append("cpu.availability:alpha", 1000L * i, i);
      }
      long[] delivered = new long[46];
      for (int i = 0; i < delivered.length; i++) {
        delivered[i] = i + 1;
      }
      spool.acknowledge(delivered);
    }
    Path seg = segmentFiles().get(0);
    long frame = Files.size(seg) / 100;
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {0x55}), 20 * frame + 25); // in record 21, delivered
    }

    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      List<SpoolEntry> undelivered = spool.unacknowledged(1000);
      assertEquals(54, undelivered.size());
      assertEquals(47, undelivered.get(0).seq());
      assertEquals(100_000, undelivered.get(53).timestampMs());
      assertEquals(0, spool.dropped(), "the record lost was delivered already");
      assertEquals(54, spool.pending());
    }
    assertTrue(Files.exists(seg.resolveSibling(seg.getFileName() + ".damaged")));
  }

  @Test
  void open_byteFlippedInUndeliveredPart_countsThatOneDropped() throws IOException {
    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      for (int i = 1; i <= 100; i++) {
        spool.append("cpu.availability:alpha", 1000L * i, i);
      }
      spool.acknowledge(1, 2, 3);
    }
    Path seg = segmentFiles().get(0);
    long frame = Files.size(seg) / 100;
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {0x55}), 59 * frame + 12); // record 60
    }

    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      List<Long> left = seqsOf(spool.unacknowledged(1000));
      assertEquals(96, left.size());
      assertTrue(!left.contains(60L) && left.contains(61L) && left.contains(100L));
      assertEquals(1, spool.dropped());
      assertEquals(101, spool.append("s:a", 1, 1));
    }
  }

  @Test
  void open_segmentBeforeTheLastCutShort_countsItsLostTailDropped() throws IOException {
    try (Spool spool = Spool.open(dir, SMALL)) {
      for (int i = 1; i <= 100; i++) {
        spool.append("s:a", i, i);
      }
    }
    List<Path> segs = segmentFiles();
    assertTrue(segs.size() >= 2, segs.toString());
    long size = Files.size(segs.get(0));
    long frame = RecordFile.HEADER + SpoolCodec.FIXED + "s:a".length();
    long inFirst = size / frame;
    try (FileChannel ch = FileChannel.open(segs.get(0), StandardOpenOption.WRITE)) {
      ch.truncate(size - 2 * frame - 5); // two whole records and part of a third
    }

    try (Spool spool = Spool.open(dir, SMALL)) {
      assertEquals(3, spool.dropped());
      List<Long> left = seqsOf(spool.unacknowledged(1000));
      assertEquals(97, left.size());
      assertTrue(!left.contains(inFirst) && left.contains(inFirst + 1));
    }
  }

  @Test
  void open_tornAckLogTail_ignoresPartialRecord() throws IOException {
    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      spool.append("s:a", 1, 1);
      spool.append("s:a", 2, 2);
      spool.acknowledge(1);
    }
    try (FileChannel ch = FileChannel.open(dir.resolve("acks.log"), StandardOpenOption.APPEND)) {
      ch.write(ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 0, 0, 0, 2, 0, 0}));
    }

    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      assertEquals(List.of(new SpoolEntry(2, "s:a", 2, 2.0)), spool.unacknowledged(10));
      assertEquals(AckLog.RECORD, Files.size(dir.resolve("acks.log")));
    }
  }

  @Test
  void append_pastMaxBytes_dropsOldestSegmentAndCountsUndelivered() throws IOException {
    try (Spool spool = Spool.open(dir, SMALL)) {
      int n = 0;
      while (spool.dropped() == 0) {
        spool.append("cpu.availability:alpha", ++n, n);
      }

      assertTrue(spool.sizeBytes() <= SMALL.maxBytes());
      List<SpoolEntry> left = spool.unacknowledged(100_000);
      assertEquals(n, left.get(left.size() - 1).seq());
      assertEquals(n - left.size(), spool.dropped());
      assertEquals(left.get(0).seq() - 1, spool.dropped());
      assertTrue(spool.dropped() <= SMALL.segmentBytes() / 40);
    }
  }

  @Test
  void append_pastMaxBytesWithOldestAcknowledged_dropsNothingUndelivered() throws IOException {
    try (Spool spool = Spool.open(dir, SMALL)) {
      for (int i = 1; i <= 400; i++) {
        long seq = spool.append("cpu.availability:alpha", i, i);
        spool.acknowledge(seq);
      }

      assertEquals(0, spool.dropped());
      assertEquals(0, spool.pending());
      assertTrue(segmentFiles().size() <= 2, "segments " + segmentFiles());
    }
  }

  @Test
  void acknowledge_wholeSegments_deletesThemAndCompactsAckLog() throws IOException {
    try (Spool spool = Spool.open(dir, SMALL)) {
      List<Long> all = new ArrayList<>();
      for (int i = 1; i <= 150; i++) {
        all.add(spool.append("cpu.availability:alpha", i, i));
      }
      int before = segmentFiles().size();

      spool.acknowledge(all.subList(0, 140).stream().mapToLong(Long::longValue).toArray());

      assertTrue(segmentFiles().size() < before);
      assertEquals(10, spool.pending());
      spool.compact();
      assertEquals(10, spool.unacknowledged(100).size());
      assertTrue(Files.size(dir.resolve("acks.log")) <= 2L * AckLog.RECORD);
    }
    try (Spool spool = Spool.open(dir, SMALL)) {
      assertEquals(141, spool.unacknowledged(100).get(0).seq());
      assertEquals(151, spool.append("s:a", 1, 1));
    }
  }

  @Test
  void compact_everythingAcknowledged_keepsSequenceGoingAfterReopen() throws IOException {
    try (Spool spool = Spool.open(dir, SMALL)) {
      spool.append("s:a", 1, 1);
      spool.append("s:a", 2, 2);
      spool.acknowledge(1, 2);
      spool.compact();
      assertEquals(0, spool.sizeBytes());
    }
    try (Spool spool = Spool.open(dir, SMALL)) {
      assertEquals(3, spool.append("s:a", 3, 3));
      assertEquals(1, spool.pending());
    }
  }

  @Test
  void append_afterClose_throws() throws IOException {
    Spool spool = Spool.open(dir, SpoolOptions.defaults());
    spool.close();

    assertThrows(IllegalStateException.class, () -> spool.append("s:a", 1, 1));
  }

  @Test
  void seqRanges_addMergesAndCounts() {
    SeqRanges r = new SeqRanges();
    r.add(5, 7);
    r.add(1, 2);
    r.add(3, 4);
    r.add(10, 10);

    assertEquals(8, r.count());
    assertEquals(2, r.rangeCount());
    assertTrue(r.covers(1, 7));
    assertTrue(!r.contains(8));
    r.removeBelow(6);
    assertEquals(3, r.count());
    assertEquals(2, r.countIn(0, 7));
  }
}
