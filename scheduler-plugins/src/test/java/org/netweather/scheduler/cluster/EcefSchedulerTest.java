package org.netweather.scheduler.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/schedulers/clusters.md, worked cases P3: ECEF over the six logical clusters of Table 2. */
class EcefSchedulerTest {
  private static double[][] gaps(double g) {
    double[][] out = new double[6][6];
    for (double[] row : out) {
      java.util.Arrays.fill(row, g);
    }
    return out;
  }

  @Test
  void schedule_gap1000_followsThePublishedOrder() {
    EcefScheduler.Schedule s =
        EcefScheduler.schedule(
            0, Table2.LATENCY, gaps(1000), new double[6], EcefScheduler.Variant.ECEF);
    // Cluster indices: 0 C1, 1 C21, 2 C22, 3 C23, 4 C3, 5 C4.
    List<int[]> pairs =
        s.transfers().stream().map(t -> new int[] {t.sender(), t.receiver()}).toList();
    int[][] expected = {{0, 4}, {0, 1}, {0, 2}, {1, 3}, {4, 5}};
    double[] at = {6211.94, 8577.49, 9586.49, 9637.45, 10842.45};
    for (int k = 0; k < 5; k++) {
      assertEquals(expected[k][0], pairs.get(k)[0], "sender of step " + k);
      assertEquals(expected[k][1], pairs.get(k)[1], "receiver of step " + k);
      assertEquals(at[k], s.transfers().get(k).arrival(), 1e-6);
    }
    assertEquals(10842.45, s.interMakespan(), 1e-6);
  }

  @Test
  void schedule_zeroGap_degeneratesToAStar() {
    EcefScheduler.Schedule s =
        EcefScheduler.schedule(
            0, Table2.LATENCY, gaps(0), new double[6], EcefScheduler.Variant.ECEF);
    s.transfers().forEach(t -> assertEquals(0, t.sender()));
    assertEquals(8602.73, s.interMakespan(), 1e-6);
  }

  @Test
  void schedule_intraTimes_delayedByOwnSendsAndLatCanWin() {
    double[] intra = {100, 100, 100, 0, 100, 5000};
    EcefScheduler.Schedule plain =
        EcefScheduler.schedule(0, Table2.LATENCY, gaps(1000), intra, EcefScheduler.Variant.ECEF);
    // C3 sent to C4 after receiving, so its ready time is its arrival plus one gap.
    assertEquals(6211.94 + 1000, plain.ready()[4], 1e-6);
    assertEquals(10842.45 + 5000, plain.makespan(), 1e-6);
    EcefScheduler.Schedule best = EcefScheduler.best(0, Table2.LATENCY, gaps(1000), intra);
    assertEquals(
        Math.min(
            plain.makespan(),
            EcefScheduler.schedule(
                    0, Table2.LATENCY, gaps(1000), intra, EcefScheduler.Variant.ECEF_LAT)
                .makespan()),
        best.makespan(),
        1e-9);
  }
}
