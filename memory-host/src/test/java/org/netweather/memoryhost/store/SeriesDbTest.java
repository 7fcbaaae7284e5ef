package org.netweather.memoryhost.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeriesDbTest {
  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dir;

  private static void append(SeriesDb db, String name, long[] t, double[] v) throws IOException {
    SeriesState s = db.get(name);
    List<SeriesState> created = new ArrayList<>();
    if (s == null) {
      s = db.draft(name, T0);
      created.add(s);
    }
    PointBuffer b = new PointBuffer(t.length);
    for (int i = 0; i < t.length; i++) {
      if (!db.contains(s, t[i]) && !b.contains(t[i])) {
        b.add(t[i], v[i]);
      }
    }
    Map<SeriesState, PointBuffer> fresh = new LinkedHashMap<>();
    fresh.put(s, b);
    db.commit(created, fresh);
    db.seal(s, false);
  }

  @Test
  void randomLifecycles_whatTheStoreShowedBeforeACloseOrKill_isWhatItShowsAfter()
      throws IOException {
    // Appends (some back-dated), seals, deletes and checkpoints in random order, with clean
    // closes and kills between them; a model of every series is checked after each reopen.
    for (long seed = 1; seed <= 6; seed++) {
      Random random = new Random(seed);
      Path store = dir.resolve("seed-" + seed);
      Map<String, TreeMap<Long, Double>> model = new TreeMap<>();
      long[] clock = {T0};
      SeriesDb db = SeriesDb.open(store);
      try {
        for (int step = 0; step < 80; step++) {
          String name = "h" + random.nextInt(5) + "/cpu.availability";
          int op = random.nextInt(100);
          if (op < 60) {
            TreeMap<Long, Double> m = model.computeIfAbsent(name, k -> new TreeMap<>());
            int n = 1 + random.nextInt(random.nextBoolean() ? 5 : 150);
            long[] t = new long[n];
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
              boolean backDated = !m.isEmpty() && random.nextInt(10) == 0;
              t[i] = backDated ? m.firstKey() - 1 - random.nextInt(1000) : (clock[0] += 1000);
              v[i] = random.nextInt(1000) / 1000.0;
            }
            append(db, name, t, v);
            for (int i = 0; i < n; i++) {
              m.putIfAbsent(t[i], v[i]);
            }
          } else if (op < 70 && db.get(name) != null) {
            db.seal(db.get(name), random.nextBoolean());
          } else if (op < 76 && db.get(name) != null) {
            db.delete(List.of(db.get(name)));
            model.remove(name);
          } else if (op < 84) {
            db.checkpoint();
          } else if (op < 92) {
            db.close();
            db = SeriesDb.open(store);
            checkModel(db, model, "seed " + seed + " step " + step + " after a clean close");
          } else {
            db.closeAsIfKilled();
            db = SeriesDb.open(store);
            checkModel(db, model, "seed " + seed + " step " + step + " after a kill");
          }
        }
      } finally {
        db.close();
      }
      try (SeriesDb reopened = SeriesDb.open(store)) {
        checkModel(reopened, model, "seed " + seed + " at the end");
      }
    }
  }

  private static void checkModel(SeriesDb db, Map<String, TreeMap<Long, Double>> model, String when)
      throws IOException {
    assertEquals(model.keySet().size(), db.seriesCount(), when + ": series " + model.keySet());
    for (Map.Entry<String, TreeMap<Long, Double>> e : model.entrySet()) {
      SeriesState s = db.get(e.getKey());
      Points all = db.range(s, 0, Long.MAX_VALUE, Integer.MAX_VALUE);
      long[] times = e.getValue().keySet().stream().mapToLong(Long::longValue).toArray();
      double[] values = e.getValue().values().stream().mapToDouble(Double::doubleValue).toArray();
      assertArrayEquals(times, all.times(), when + ": times of " + e.getKey());
      assertArrayEquals(values, all.values(), when + ": values of " + e.getKey());
      assertEquals(times.length, s.count(), when + ": count of " + e.getKey());
    }
  }

  @Test
  void aStoreThatNeverLoggedAPoint_opensAgainAfterEveryCleanClose() throws IOException {
    // A clean close checkpoints; with nothing logged yet the log's range to drop is empty, and
    // RocksDB counts an empty range deletion when writing but not when replaying its own log, so
    // the third open failed with "sequence number is being set backwards during recovery".
    for (int i = 0; i < 4; i++) {
      try (SeriesDb db = SeriesDb.open(dir)) {
        assertEquals(0, db.seriesCount());
      }
    }
    try (SeriesDb db = SeriesDb.open(dir)) {
      append(db, "h1/cpu.availability", new long[] {T0}, new double[] {0.5});
    }
    for (int i = 0; i < 3; i++) {
      try (SeriesDb db = SeriesDb.open(dir)) {
        SeriesState s = db.get("h1/cpu.availability");
        assertEquals(1, s.count());
      }
    }
  }

  @Test
  void randomAppends_inAnyOrder_readBackAsTheSortedSet_beforeAndAfterReopen() throws IOException {
    Random rnd = new Random(7);
    TreeMap<Long, Double> expected = new TreeMap<>();
    try (SeriesDb db = SeriesDb.open(dir)) {
      for (int round = 0; round < 60; round++) {
        int n = 1 + rnd.nextInt(40);
        long[] t = new long[n];
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
          // Mostly forward, sometimes back-dated into sealed chunks, sometimes duplicates.
          long base = expected.isEmpty() ? T0 : expected.lastKey();
          t[i] =
              rnd.nextInt(5) == 0
                  ? T0 + rnd.nextInt((int) (base - T0 + 1))
                  : base + 1 + rnd.nextInt(20_000);
          v[i] = rnd.nextGaussian();
          expected.putIfAbsent(t[i], v[i]);
        }
        // The first of equal times wins, as the store keeps the first stored.
        for (int i = 0; i < n; i++) {
          expected.put(t[i], expected.get(t[i]));
        }
        append(db, "user.x:a", t, v);
        check(db, expected);
      }
    }
    try (SeriesDb db = SeriesDb.open(dir)) {
      check(db, expected);
    }
  }

  private static void check(SeriesDb db, TreeMap<Long, Double> expected) throws IOException {
    SeriesState s = db.get("user.x:a");
    Points all = db.range(s, 0, Long.MAX_VALUE, Integer.MAX_VALUE);
    assertEquals(expected.size(), all.size());
    assertEquals(expected.size(), s.count());
    int i = 0;
    for (Map.Entry<Long, Double> e : expected.entrySet()) {
      assertEquals(e.getKey(), all.times()[i]);
      assertEquals(e.getValue(), all.values()[i]);
      i++;
    }
    assertEquals(expected.lastKey(), s.lastTime());
    assertEquals(expected.lastEntry().getValue(), s.lastValue());
    assertEquals(expected.firstKey(), s.firstTime());
    Points last = db.last(s, 7);
    assertArrayEquals(
        java.util.Arrays.copyOfRange(all.times(), Math.max(0, all.size() - 7), all.size()),
        last.times());
    long from = all.times()[all.size() / 3];
    long to = all.times()[2 * all.size() / 3];
    Points mid = db.range(s, from, to, Integer.MAX_VALUE);
    assertEquals(2 * all.size() / 3 - all.size() / 3 + 1, mid.size());
  }

  @Test
  void trim_dropsOldestWholeChunks_byCountAndByAge() throws IOException {
    try (SeriesDb db = SeriesDb.open(dir)) {
      long[] t = new long[1000];
      double[] v = new double[1000];
      for (int i = 0; i < t.length; i++) {
        t[i] = T0 + i * 1000L;
        v[i] = i;
      }
      append(db, "user.x:a", t, v);
      SeriesState s = db.get("user.x:a");
      assertEquals(1000, s.count());
      // Nothing is archived yet: nothing may go.
      assertEquals(0, db.trim(s, 700, Long.MIN_VALUE));
      // Archived through the second chunk's end: only those two may go, whatever the bound.
      s.archivedThrough(T0 + 239_000);
      assertEquals(240, db.trim(s, 100, Long.MIN_VALUE));
      assertEquals(760, s.count());
      s.archivedThrough(Long.MAX_VALUE);
      assertEquals(0, db.trim(s, 700, Long.MIN_VALUE));
      assertEquals(760, s.count());
      assertEquals(T0 + 240_000, s.firstTime());
      // By age: chunks ending before the cut go, the one holding the cut stays.
      db.trim(s, Long.MAX_VALUE, T0 + 500_000);
      assertEquals(T0 + 480_000, s.firstTime());
      assertEquals(T0 + 480_000, db.range(s, 0, Long.MAX_VALUE, 10).times()[0]);
    }
    try (SeriesDb db = SeriesDb.open(dir)) {
      assertEquals(520, db.get("user.x:a").count());
    }
  }

  @Test
  void delete_removesEverything_andAReusedNameStartsEmpty() throws IOException {
    try (SeriesDb db = SeriesDb.open(dir)) {
      append(db, "user.x:a", new long[] {T0, T0 + 1}, new double[] {1, 2});
      append(db, "user.x:b", new long[] {T0}, new double[] {3});
      db.delete(List.of(db.get("user.x:a")));
      assertNull(db.get("user.x:a"));
      assertEquals(1, db.seriesCount());
    }
    try (SeriesDb db = SeriesDb.open(dir)) {
      assertNull(db.get("user.x:a"), "a deleted series never comes back");
      append(db, "user.x:a", new long[] {T0 + 5}, new double[] {9});
      SeriesState s = db.get("user.x:a");
      assertEquals(1, s.count());
      assertEquals(9.0, db.range(s, 0, Long.MAX_VALUE, 10).values()[0]);
    }
  }

  @Test
  void failedCommit_storesNothing_notEvenTheSeries() throws IOException {
    try (SeriesDb db = SeriesDb.open(dir)) {
      SeriesState draft = db.draft("user.x:new", T0);
      PointBuffer b = new PointBuffer(1);
      b.add(T0, 1);
      Map<SeriesState, PointBuffer> fresh = new LinkedHashMap<>();
      fresh.put(draft, b);
      db.close();
      try {
        db.commit(List.of(draft), fresh);
      } catch (RuntimeException | IOException expected) {
        // The database is closed: the write cannot happen.
      }
    }
    try (SeriesDb db = SeriesDb.open(dir)) {
      assertEquals(0, db.seriesCount());
      assertFalse(db.series().iterator().hasNext());
    }
  }

  @Test
  void view_seesTheStoreAsItWas() throws IOException {
    try (SeriesDb db = SeriesDb.open(dir)) {
      append(db, "user.x:a", new long[] {T0, T0 + 1}, new double[] {1, 2});
      SeriesState s = db.get("user.x:a");
      try (SeriesDb.View view = db.view(List.of(s))) {
        append(db, "user.x:a", new long[] {T0 + 2}, new double[] {3});
        assertEquals(2, view.after(s, 0, 100).size());
        assertEquals(1, view.after(s, T0, 100).size());
      }
      try (SeriesDb.View view = db.view(List.of(s))) {
        assertEquals(3, view.after(s, 0, 100).size());
        assertEquals(2, view.after(s, 0, 2).size());
        assertTrue(view.after(s, T0 + 2, 100).size() == 0);
      }
    }
  }

  private static long[] times(long from, int n, long step) {
    long[] t = new long[n];
    for (int i = 0; i < n; i++) {
      t[i] = from + i * step;
    }
    return t;
  }

  private static double[] values(int n, double base) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = base + i;
    }
    return v;
  }

  @Test
  void killedBeforeAnyCheckpoint_everyAppendIsReplayedFromThePointLog() throws IOException {
    SeriesDb db = SeriesDb.open(dir);
    for (int k = 0; k < 5; k++) {
      append(db, "user.x:a", times(T0 + k * 10_000, 10, 1000), values(10, k * 10));
      append(db, "user.x:b", times(T0 + k * 10_000, 3, 1000), values(3, 0));
    }
    db.closeAsIfKilled();
    try (SeriesDb again = SeriesDb.open(dir)) {
      assertEquals(65, again.replayedPoints());
      Points a = again.range(again.get("user.x:a"), 0, Long.MAX_VALUE, 1000);
      assertEquals(50, a.size());
      assertEquals(T0 + 40_000 + 9000, a.times()[49]);
      assertEquals(49.0, a.values()[49]);
      assertEquals(15, again.get("user.x:b").count());
    }
  }

  @Test
  void checkpointWhileAppending_thenKilled_everyPointOnce_andOnlyTheTailReplayed()
      throws IOException {
    SeriesDb db = SeriesDb.open(dir);
    for (int i = 0; i < 40; i++) {
      append(db, "user.s:h" + i, times(T0, 5, 1000), values(5, i));
    }
    // Appends go on in the middle of the checkpoint: some to heads already copied, some not.
    db.checkpoint(
        20,
        () -> {
          try {
            for (int i = 0; i < 40; i += 3) {
              append(db, "user.s:h" + i, times(T0 + 5000, 2, 1000), values(2, 100));
            }
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
    append(db, "user.s:h1", times(T0 + 20_000, 1, 1000), values(1, 7));
    db.closeAsIfKilled();
    try (SeriesDb again = SeriesDb.open(dir)) {
      // The records of the groups after the checkpoint began; points the checkpoint already held
      // are not taken twice.
      assertTrue(again.replayedPoints() <= 14 * 2 + 1, "replayed " + again.replayedPoints());
      for (int i = 0; i < 40; i++) {
        SeriesState s = again.get("user.s:h" + i);
        int expected = 5 + (i % 3 == 0 ? 2 : 0) + (i == 1 ? 1 : 0);
        Points p = again.range(s, 0, Long.MAX_VALUE, 1000);
        assertEquals(expected, p.size(), s.name());
        for (int j = 1; j < p.size(); j++) {
          assertTrue(p.times()[j] > p.times()[j - 1]);
        }
      }
    }
  }

  @Test
  void killedAfterDeleteSealAndTrim_replayRevivesNothing() throws IOException {
    SeriesDb db = SeriesDb.open(dir);
    append(db, "user.x:gone", times(T0, 4, 1000), values(4, 0));
    db.delete(List.of(db.get("user.x:gone")));
    // 300 points: the head seals at 120 (append seals full heads), then retention keeps ~150.
    append(db, "user.x:kept", times(T0, 300, 1000), values(300, 0));
    SeriesState kept = db.get("user.x:kept");
    db.seal(kept, false);
    kept.archivedThrough(Long.MAX_VALUE);
    long dropped = db.trim(kept, 150, Long.MIN_VALUE);
    assertTrue(dropped > 0);
    long countBefore = kept.count();
    long firstBefore = kept.firstTime();
    db.closeAsIfKilled();
    try (SeriesDb again = SeriesDb.open(dir)) {
      assertNull(again.get("user.x:gone"));
      SeriesState s = again.get("user.x:kept");
      assertEquals(countBefore, s.count());
      assertEquals(firstBefore, s.firstTime());
      Points p = again.range(s, 0, Long.MAX_VALUE, 1000);
      assertEquals(countBefore, p.size());
      assertEquals(T0 + 299_000, p.times()[p.size() - 1]);
    }
  }

  @Test
  void cleanClose_checkpointsSoTheNextOpenReplaysNothing() throws IOException {
    try (SeriesDb db = SeriesDb.open(dir)) {
      append(db, "user.x:a", times(T0, 10, 1000), values(10, 0));
    }
    try (SeriesDb db = SeriesDb.open(dir)) {
      assertEquals(0, db.replayedPoints());
      assertEquals(10, db.get("user.x:a").count());
    }
  }

  @Test
  void pointLog_roundTripsTimesInAnyOrderAndEveryDouble() {
    PointLog log = new PointLog();
    PointBuffer p = new PointBuffer(4);
    long[] t = {T0, T0 + 5000, T0 - 86_400_000L, Long.MAX_VALUE / 2, 0};
    double[] v = {1.5, -0.0, Double.MAX_VALUE, Double.MIN_VALUE, 1e-300};
    for (int i = 0; i < t.length; i++) {
      p.add(t[i], v[i]);
    }
    log.add(7, p);
    log.add(1L << 40, p);
    List<long[]> seen = new ArrayList<>();
    List<Double> vals = new ArrayList<>();
    PointLog.decode(
        log.toByteArray(),
        (id, time, value) -> {
          seen.add(new long[] {id, time});
          vals.add(value);
        });
    assertEquals(10, seen.size());
    for (int i = 0; i < 10; i++) {
      assertEquals(i < 5 ? 7 : 1L << 40, seen.get(i)[0]);
      assertEquals(t[i % 5], seen.get(i)[1]);
      assertEquals(Double.doubleToRawLongBits(v[i % 5]), Double.doubleToRawLongBits(vals.get(i)));
    }
    byte[] cut = java.util.Arrays.copyOf(log.toByteArray(), 20);
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> PointLog.decode(cut, (id, time, value) -> {}));
  }

  @Test
  void sealedAfterTheCheckpoint_thenKilled_theCheckpointedHeadIsNotCountedTwice()
      throws IOException {
    SeriesDb db = SeriesDb.open(dir);
    append(db, "user.x:a", times(T0, 5, 1000), values(5, 0));
    db.checkpoint();
    assertTrue(db.seal(db.get("user.x:a"), true));
    append(db, "user.x:a", times(T0 + 10_000, 2, 1000), values(2, 50));
    db.closeAsIfKilled();
    try (SeriesDb again = SeriesDb.open(dir)) {
      Points p = again.range(again.get("user.x:a"), 0, Long.MAX_VALUE, 1000);
      assertEquals(7, p.size());
      assertEquals(7, again.get("user.x:a").count());
      assertEquals(T0 + 11_000, p.times()[6]);
    }
  }

  @Test
  void checkpoint_dropsTheLogItCovers_andOpenReadsTheHeadsFromItsFile() throws IOException {
    SeriesDb db = SeriesDb.open(dir);
    for (int i = 0; i < 30; i++) {
      append(db, "user.c:h" + i, times(T0, 7, 1000), values(7, i));
    }
    db.checkpoint();
    assertEquals(0, db.loggedBytes());
    db.closeAsIfKilled();
    assertTrue(java.nio.file.Files.size(dir.resolve(HeadCheckpoint.FILE)) > 30 * 7);
    try (SeriesDb again = SeriesDb.open(dir)) {
      assertEquals(0, again.replayedPoints(), "nothing left in the log");
      for (int i = 0; i < 30; i++) {
        Points p = again.range(again.get("user.c:h" + i), 0, Long.MAX_VALUE, 1000);
        assertArrayEquals(times(T0, 7, 1000), p.times());
        assertEquals(i + 6.0, p.values()[6]);
      }
      // Numbering goes on after the dropped records: a new group is replayed after a kill.
      append(again, "user.c:h0", times(T0 + 60_000, 1, 1000), values(1, 9));
      again.closeAsIfKilled();
    }
    try (SeriesDb third = SeriesDb.open(dir)) {
      assertEquals(1, third.replayedPoints());
      assertEquals(8, third.get("user.c:h0").count());
    }
  }

  @Test
  void aDamagedCheckpointFile_failsTheOpen_namingIt() throws IOException {
    SeriesDb db = SeriesDb.open(dir);
    append(db, "user.x:a", times(T0, 5, 1000), values(5, 0));
    db.close();
    Path file = dir.resolve(HeadCheckpoint.FILE);
    byte[] b = java.nio.file.Files.readAllBytes(file);
    b[b.length / 2] ^= 0x10;
    java.nio.file.Files.write(file, b);
    IOException e =
        org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> SeriesDb.open(dir));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  @Test
  void checkpointsOnAnotherThread_whileAppendsAndSealsGoOn_thenKilled_everyPointOnce()
      throws Exception {
    SeriesDb db = SeriesDb.open(dir);
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicInteger checkpoints =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CompletableFuture<Void> checkpointer =
        java.util.concurrent.CompletableFuture.runAsync(
            () -> {
              while (!stop.get()) {
                try {
                  db.checkpoint();
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
                checkpoints.incrementAndGet();
              }
            });
    int series = 40;
    int rounds = 70;
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < series; i++) {
        // Three points a round: every head fills and is sealed once (at 120) along the way.
        append(db, "user.p:h" + i, times(T0 + r * 3000L, 3, 1000), values(3, r * 3));
      }
    }
    stop.set(true);
    checkpointer.get(60, java.util.concurrent.TimeUnit.SECONDS);
    assertTrue(checkpoints.get() >= 2, "checkpoints " + checkpoints.get());
    db.closeAsIfKilled();
    try (SeriesDb again = SeriesDb.open(dir)) {
      for (int i = 0; i < series; i++) {
        SeriesState s = again.get("user.p:h" + i);
        Points p = again.range(s, 0, Long.MAX_VALUE, 10_000);
        assertEquals(rounds * 3, p.size(), s.name());
        assertEquals(rounds * 3, s.count(), s.name());
        for (int j = 0; j < p.size(); j++) {
          assertEquals(T0 + j * 1000L, p.times()[j], s.name());
          assertEquals(j, p.values()[j], s.name());
        }
      }
    }
  }

  @Test
  void aCheckpointCutShortByAKill_isIgnored_andTheNextOneReplacesIt() throws IOException {
    SeriesDb db = SeriesDb.open(dir);
    append(db, "user.x:a", times(T0, 5, 1000), values(5, 0));
    db.checkpoint();
    append(db, "user.x:a", times(T0 + 5000, 2, 1000), values(2, 5));
    db.closeAsIfKilled();
    // What a kill in the middle of writing the next checkpoint leaves.
    java.nio.file.Files.write(dir.resolve(HeadCheckpoint.FILE + ".new"), new byte[] {1, 2, 3});
    try (SeriesDb again = SeriesDb.open(dir)) {
      assertEquals(7, again.get("user.x:a").count());
      again.checkpoint();
      assertFalse(java.nio.file.Files.exists(dir.resolve(HeadCheckpoint.FILE + ".new")));
    }
    try (SeriesDb third = SeriesDb.open(dir)) {
      Points p = third.range(third.get("user.x:a"), 0, Long.MAX_VALUE, 100);
      assertArrayEquals(times(T0, 7, 1000), p.times());
    }
  }

  @Test
  void aHeadAgesFromWhenItWasFirstSeen_notFromItsPointsTimestamps() throws IOException {
    try (SeriesDb db = SeriesDb.open(dir)) {
      // Points three hours old, as a sensor with a late clock or an old backlog delivers them.
      long now = T0 + 3 * 3_600_000L;
      append(db, "user.x:late", times(T0, 5, 10_000), values(5, 0));
      SeriesState s = db.get("user.x:late");
      assertEquals(0, db.headAgeMs(s, now));
      assertEquals(60_000, db.headAgeMs(s, now + 60_000));
      // Sealed, the next head's age starts again at its first look.
      db.seal(s, true);
      assertEquals(0, db.headAgeMs(s, now + 120_000));
      append(db, "user.x:late", times(T0 + 50_000, 3, 10_000), values(3, 5));
      assertEquals(0, db.headAgeMs(s, now + 180_000));
      assertEquals(7_200_000, db.headAgeMs(s, now + 7_380_000));
    }
  }
}
