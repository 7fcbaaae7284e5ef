package org.netweather.scheduler.jacobi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.netweather.scheduler.jacobi.StripBalancer.Balance;

/** Worked cases J1–J5 of docs/schedulers/jacobi.md, and its memory-capped solver. */
class StripBalancerTest {
  private static final double AREA = 1e6; // N = 1000
  private static final double[] TWICE = {1e-6, 2e-6};
  private static final double INF = Double.POSITIVE_INFINITY;

  @Test
  void balance_j1ProcessorTwiceAsFast_getsTwiceTheStrip() {
    Balance b = StripBalancer.balance(TWICE, new double[] {0, 0}, AREA);
    assertEquals(0.666667, b.seconds(), 1e-6);
    assertArrayEquals(new double[] {666666.7, 333333.3}, b.areas(), 0.1);
    int[] w =
        StripRounder.round(b.areas(), 1000, new double[] {INF, INF}, TWICE, new double[] {0, 0});
    assertArrayEquals(new int[] {667, 333}, w);
  }

  @Test
  void balance_j2EqualCommunication_keepsTheSplit() {
    Balance b = StripBalancer.balance(TWICE, new double[] {0.1, 0.1}, AREA);
    assertEquals(0.766667, b.seconds(), 1e-6);
    assertArrayEquals(new double[] {666667, 333333}, b.areas(), 1);
  }

  @Test
  void balance_j3UnequalCommunication_shiftsWorkToCheaperCommunicator() {
    Balance b = StripBalancer.balance(TWICE, new double[] {0.1, 0.3}, AREA);
    assertEquals(0.833333, b.seconds(), 1e-6);
    assertArrayEquals(new double[] {733333, 266667}, b.areas(), 1);
    assertEquals(AREA, b.areas()[0] + b.areas()[1], 1e-6);
  }

  @Test
  void balance_j4ExpensiveCommunication_givesNegativeAreaSoSequentialWins() {
    Balance b = StripBalancer.balance(TWICE, new double[] {0.1, 1.5}, AREA);
    assertEquals(1.233333, b.seconds(), 1e-6);
    assertEquals(-133333, b.areas()[1], 1);
    // The fallback, k = 1: T = N²·P₁ with no communication.
    assertEquals(
        1.0, StripBalancer.balance(new double[] {1e-6}, new double[] {0}, AREA).seconds(), 1e-12);
  }

  @Test
  void balance_j5ThreeIdentical_endsGetMoreThanTheMiddle() {
    double c = 0.05;
    Balance b =
        StripBalancer.balance(new double[] {1e-6, 1e-6, 1e-6}, new double[] {c, 2 * c, c}, AREA);
    assertEquals(0.4, b.seconds(), 1e-12);
    assertArrayEquals(new double[] {350000, 300000, 350000}, b.areas(), 1e-6);
  }

  @Test
  void balance_j5BorderDearerThanHalfTheWork_middleGoesNegative() {
    double atLimit = 0.5; // N²P/2
    Balance edge =
        StripBalancer.balance(
            new double[] {1e-6, 1e-6, 1e-6}, new double[] {atLimit, 2 * atLimit, atLimit}, AREA);
    assertEquals(0, edge.areas()[1], 1e-6);
    Balance over =
        StripBalancer.balance(
            new double[] {1e-6, 1e-6, 1e-6}, new double[] {0.51, 1.02, 0.51}, AREA);
    assertTrue(over.areas()[1] < 0);
  }

  @Test
  void capped_looseCaps_equalsClosedForm() {
    double[] p = {1e-6, 2e-6, 1.5e-6};
    double[] c = {0.01, 0.02, 0.01};
    Balance open = StripBalancer.balance(p, c, AREA);
    Balance capped = CappedStripBalancer.balance(p, c, new double[] {INF, 1e9, INF}, AREA);
    assertEquals(open.seconds(), capped.seconds(), 1e-12);
    assertArrayEquals(open.areas(), capped.areas(), 1e-3);
  }

  @Test
  void capped_negativeArea_clampedToZeroAndOthersShare() {
    // J4: the second host's communication exceeds the balanced T, so it computes nothing.
    Balance b =
        CappedStripBalancer.balance(TWICE, new double[] {0.1, 1.5}, new double[] {INF, INF}, AREA);
    assertEquals(1.1, b.seconds(), 1e-12);
    assertArrayEquals(new double[] {AREA, 0}, b.areas(), 1e-6);
  }

  @Test
  void capped_j7At6000_fillsSpNodesAndReaches1_009() {
    int n = 6000;
    double sp = 2.0 * n * 8 / 35e6; // one SP-SP border exchange
    double ws = 2.0 * n * 8 / 0.5e6; // one exchange on a workstation link
    double[] p = {1e-7, 1e-7, 1e-7, 1e-7, 1e-6, 1e-6, 1e-6, 1e-6};
    double[] c = {sp, 2 * sp, 2 * sp, sp + ws, 2 * ws, 2 * ws, 2 * ws, ws};
    double spCap = 128.0 * (1 << 20) / 16;
    double wsCap = 64.0 * (1 << 20) / 16;
    double[] cap = {spCap, spCap, spCap, spCap, wsCap, wsCap, wsCap, wsCap};
    Balance b = CappedStripBalancer.balance(p, c, cap, (double) n * n);
    assertEquals(1.009, b.seconds(), 5e-4);
    double[] mib = Arrays.stream(b.areas()).map(a -> a * 16 / (1 << 20)).toArray();
    assertArrayEquals(new double[] {128, 128, 128, 124.2}, Arrays.copyOf(mib, 4), 0.05);
    assertEquals((double) n * n, Arrays.stream(b.areas()).sum(), 1e-3);
  }

  @Test
  void capped_notEnoughMemory_null() {
    assertNull(
        CappedStripBalancer.balance(TWICE, new double[] {0, 0}, new double[] {4e5, 5e5}, AREA));
  }

  @Test
  void capped_memoryExactlyEnough_fillsEveryHost() {
    Balance b =
        CappedStripBalancer.balance(TWICE, new double[] {0, 0}, new double[] {4e5, 6e5}, AREA);
    assertArrayEquals(new double[] {4e5, 6e5}, b.areas(), 1e-6);
    assertEquals(1.2, b.seconds(), 1e-12);
  }

  @Test
  void round_sumsToNAndRespectsCaps() {
    double[] areas = {1398.1 * 6000, 1356.9 * 6000, 3244.999 * 6000};
    double[] cap = {1398.5 * 6000, INF, INF};
    int[] w =
        StripRounder.round(
            areas, 6000, cap, new double[] {1e-7, 1e-7, 1e-6}, new double[] {0, 0, 0});
    assertEquals(6000, Arrays.stream(w).sum());
    assertTrue(w[0] <= 1398);
  }

  @Test
  void round_spareColumnGoesWhereItCostsLeast() {
    // Largest remainder would give the spare column to the slow third strip (fraction .8);
    // it costs least on the fast first one.
    double[] areas = {100.1 * 300, 100.1 * 300, 99.8 * 300};
    int[] w =
        StripRounder.round(
            areas,
            300,
            new double[] {INF, INF, INF},
            new double[] {1e-7, 1e-7, 1e-5},
            new double[] {0, 0, 0});
    assertArrayEquals(new int[] {101, 100, 99}, w);
  }

  @Test
  void round_capsTooTight_null() {
    assertNull(
        StripRounder.round(
            new double[] {50, 50},
            10,
            new double[] {40, 40},
            new double[] {1, 1},
            new double[] {0, 0}));
  }
}
