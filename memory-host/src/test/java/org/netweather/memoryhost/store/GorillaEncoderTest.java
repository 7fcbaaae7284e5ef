package org.netweather.memoryhost.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class GorillaEncoderTest {
  @Test
  void valueAtMax_followsTheNewestPointThroughBackDatingCopiesAndResume() {
    GorillaEncoder e = new GorillaEncoder();
    assertTrue(Double.isNaN(e.valueAtMax()));
    e.add(20_000, 2.0);
    e.add(10_000, 1.0); // back-dated: the newest point is still at 20 000
    assertEquals(2.0, e.valueAtMax());
    e.add(30_000, 3.0);
    GorillaEncoder copy = e.copy();
    copy.add(40_000, 4.0);
    assertEquals(3.0, e.valueAtMax());
    assertEquals(4.0, copy.valueAtMax());
    GorillaEncoder resumed = GorillaEncoder.resume(copy.state());
    assertEquals(40_000, resumed.maxTime());
    assertEquals(4.0, resumed.valueAtMax());
    resumed.add(35_000, 3.5);
    assertEquals(4.0, resumed.valueAtMax());
  }

  @Test
  void storedHeads_inEveryFormEverWritten_resumeWithTheirPointsAndNewestValue() {
    GorillaEncoder e = new GorillaEncoder();
    e.add(20_000, 2.0);
    e.add(10_000, 1.0); // back-dated: the value at the newest time is 2.0, not the last added
    byte[] current = SeriesDb.encodeHead(e, 42);
    byte[] state = e.state();
    byte[] withSeq = new byte[9 + state.length];
    withSeq[0] = (byte) 0xFF;
    Keys.put(withSeq, 1, 42);
    System.arraycopy(state, 0, withSeq, 9, state.length);
    for (byte[] stored : new byte[][] {current, withSeq, state}) {
      GorillaEncoder r = SeriesDb.decodeHead(stored);
      assertEquals(2.0, r.valueAtMax());
      assertEquals(2, r.count());
      r.add(30_000, 3.0);
      GorillaDecoder d = r.decoder();
      StringBuilder seen = new StringBuilder();
      while (d.hasNext()) {
        d.next();
        seen.append(d.time()).append('=').append(d.value()).append(' ');
      }
      assertEquals("20000=2.0 10000=1.0 30000=3.0 ", seen.toString());
      assertEquals(3.0, r.valueAtMax());
    }
  }

  @Test
  void roundTrip_randomSeries_returnsEveryPointBitForBit() {
    Random rnd = new Random(42);
    for (int trial = 0; trial < 2000; trial++) {
      int n = 1 + rnd.nextInt(300);
      long[] t = new long[n];
      double[] v = new double[n];
      long time = 1 + (rnd.nextLong() >>> 2);
      double value = rnd.nextDouble();
      for (int i = 0; i < n; i++) {
        switch (rnd.nextInt(6)) {
          case 0 -> time += 10_000; // steady period
          case 1 -> time += 10_000 + rnd.nextInt(200) - 100; // jitter
          case 2 -> time -= rnd.nextInt(1 << 20); // back-dated
          case 3 -> time += rnd.nextLong() >>> 20; // far jump
          default -> time += rnd.nextInt(5_000_000);
        }
        switch (rnd.nextInt(6)) {
          case 0 -> {} // repeated value
          case 1 -> value = rnd.nextDouble();
          case 2 -> value = rnd.nextInt(1000);
          case 3 ->
              value =
                  new double[] {
                        0.0,
                        -0.0,
                        Double.MAX_VALUE,
                        Double.MIN_VALUE,
                        Double.NaN,
                        Double.NEGATIVE_INFINITY
                      }
                      [rnd.nextInt(6)];
          default -> value += rnd.nextGaussian();
        }
        t[i] = time;
        v[i] = value;
      }
      GorillaEncoder e = new GorillaEncoder();
      for (int i = 0; i < n; i++) {
        e.add(t[i], v[i]);
      }
      byte[] bytes = e.toByteArray();
      GorillaDecoder d = new GorillaDecoder(bytes, 0, bytes.length * 8L, e.count());
      for (int i = 0; i < n; i++) {
        assertTrue(d.hasNext());
        d.next();
        assertEquals(t[i], d.time(), "time " + i + " of trial " + trial);
        assertEquals(
            Double.doubleToRawLongBits(v[i]),
            Double.doubleToRawLongBits(d.value()),
            "value " + i + " of trial " + trial);
      }
      assertFalse(d.hasNext());
    }
  }

  @Test
  void resume_fromState_continuesBitForBit() {
    Random rnd = new Random(3);
    GorillaEncoder whole = new GorillaEncoder();
    GorillaEncoder parted = new GorillaEncoder();
    long t = 1_700_000_000_000L;
    for (int i = 0; i < 500; i++) {
      t += 9_000 + rnd.nextInt(2_000);
      double v = rnd.nextInt(3) == 0 ? 42 : rnd.nextGaussian();
      whole.add(t, v);
      parted.add(t, v);
      if (i % 37 == 0) {
        parted = GorillaEncoder.resume(parted.state());
      }
    }
    assertEquals(whole.count(), parted.count());
    assertEquals(whole.minTime(), parted.minTime());
    assertEquals(whole.maxTime(), parted.maxTime());
    org.junit.jupiter.api.Assertions.assertArrayEquals(whole.toByteArray(), parted.toByteArray());
  }

  @Test
  void bucketEdges_deltaOfDeltaAtEachLimit_roundTrip() {
    long[] dods = {
      -63,
      64,
      -64,
      65,
      -255,
      256,
      -256,
      257,
      -2047,
      2048,
      -2048,
      2049,
      Integer.MAX_VALUE,
      Integer.MIN_VALUE + 1,
      Integer.MIN_VALUE,
      1L << 40,
      -(1L << 40)
    };
    for (long dod : dods) {
      GorillaEncoder e = new GorillaEncoder();
      long t0 = 1L << 50;
      e.add(t0, 1);
      e.add(t0 + 1000, 2);
      e.add(t0 + 2000 + dod, 3);
      GorillaDecoder d = e.decoder();
      d.next();
      d.next();
      d.next();
      assertEquals(t0 + 2000 + dod, d.time(), "dod " + dod);
    }
  }

  @Test
  void steadySeries_takesAboutTwoBitsPerPoint() {
    GorillaEncoder e = new GorillaEncoder();
    for (int i = 0; i < 120; i++) {
      e.add(1_700_000_000_000L + i * 10_000L, 512.0);
    }
    // 16 bytes for the first point, 5 for the first delta, then one bit for the time and one
    // for the value of each later point: 30 bytes.
    assertTrue(e.encodedBytes() <= 16 + 5 + 30, "took " + e.encodedBytes() + " bytes");
  }
}
