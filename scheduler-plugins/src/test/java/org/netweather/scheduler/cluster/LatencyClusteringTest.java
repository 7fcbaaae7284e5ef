package org.netweather.scheduler.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.netweather.scheduler.Examples;

/**
 * docs/schedulers/clusters.md, worked cases P1: clustering the paper's Table 2, and its sensitivity
 * tests.
 */
class LatencyClusteringTest {
  private static List<Integer> sizes(List<List<Integer>> clusters) {
    return clusters.stream().map(List::size).toList();
  }

  @Test
  void cluster_table2AtTwentyPercent_givesTheSixBlocks() {
    List<List<Integer>> c = LatencyClustering.cluster(Table2.matrix(), 0.2);
    assertEquals(List.of(20, 11, 7, 1, 20, 19), sizes(c));
    int[] block = Table2.blocks();
    for (List<Integer> cluster : c) {
      // Each logical cluster is exactly one block of the table (Grenoble split 11/7/1).
      assertEquals(1, cluster.stream().map(h -> block[h]).distinct().count());
    }
  }

  @Test
  void cluster_halfBound_mergesC22WithC23() {
    assertEquals(
        List.of(20, 11, 8, 20, 19), sizes(LatencyClustering.cluster(Table2.matrix(), 0.5)));
  }

  @Test
  void cluster_boundsPointSevenAndOne_mergeC21WithC22AndLeaveC23Alone() {
    for (double rho : new double[] {0.7, 1.0}) {
      assertEquals(
          List.of(20, 18, 1, 20, 19),
          sizes(LatencyClustering.cluster(Table2.matrix(), rho)),
          "rho " + rho);
    }
  }

  @Test
  void cluster_twoLoneFarNodes_doNotMerge() {
    // Two tight pairs 0.1 ms inside, and two lone nodes 5 ms apart and 6 ms from the rest.
    double[][] raw = {
      {0, 0.1, 6, 6, 7, 7},
      {0.1, 0, 6, 6, 7, 7},
      {6, 6, 0, 0.1, 7, 7},
      {6, 6, 0.1, 0, 7, 7},
      {7, 7, 7, 7, 0, 5},
      {7, 7, 7, 7, 5, 0}
    };
    LatencyMatrix m =
        LatencyMatrix.of(List.of("a", "b", "c", "d", "x", "y"), raw, LatencyMatrix.Symmetry.MAX);
    assertEquals(
        List.of(List.of(0, 1), List.of(2, 3), List.of(4, 5)), LatencyClustering.cluster(m, 0.2));
    // x and y are each other's nearest neighbours, so they do merge; now make a closer third
    // node for each so their 5 ms edge is far beyond 1.2 × their nearest-neighbour latency.
    raw[4][0] = raw[0][4] = 1;
    raw[5][2] = raw[2][5] = 1;
    m = LatencyMatrix.of(List.of("a", "b", "c", "d", "x", "y"), raw, LatencyMatrix.Symmetry.MAX);
    List<List<Integer>> c = LatencyClustering.cluster(m, 0.2);
    assertTrue(c.stream().noneMatch(k -> k.contains(4) && k.contains(5)), c.toString());
  }

  @Test
  void cluster_unmeasuredHost_staysSingleton() {
    double n = Double.NaN;
    double[][] raw = {{0, 1, n}, {1, 0, n}, {n, n, 0}};
    LatencyMatrix m = LatencyMatrix.of(List.of("a", "b", "c"), raw, LatencyMatrix.Symmetry.MAX);
    assertEquals(List.of(List.of(0, 1), List.of(2)), LatencyClustering.cluster(m, 0.2));
  }

  @Test
  void read_table2Example_givesTheSixBlocksByName() {
    LatencyMatrix m =
        LatencyMatrixReader.read(
            Examples.path("cluster/table2-78.csv"), LatencyMatrix.Symmetry.MAX);
    List<List<String>> c = LatencyClustering.clusterNames(m, 0.2);
    assertEquals(List.of(20, 11, 7, 1, 20, 19), c.stream().map(List::size).toList());
    assertEquals("grenoble-19", c.get(3).get(0));
  }

  @Test
  void read_mismatchedRowName_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LatencyMatrixReader.parse(
                    List.of(",a,b", "a,0,1", "c,1,0"), "f", LatencyMatrix.Symmetry.MAX));
    assertTrue(e.getMessage().contains("expected 'b'"), e.getMessage());
  }

  @Test
  void cluster_thousandRandomSites_recoversSites() {
    int n = 1000;
    Random rnd = new Random(7);
    int[] site = new int[n];
    double[][] raw = new double[n][n];
    for (int i = 0; i < n; i++) {
      site[i] = i % 10;
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < i; j++) {
        double base = site[i] == site[j] ? 50 : 1000 + 500 * Math.abs(site[i] - site[j]);
        raw[i][j] = raw[j][i] = base * (1 + 0.05 * rnd.nextDouble());
      }
    }
    List<String> names = java.util.stream.IntStream.range(0, n).mapToObj(i -> "h" + i).toList();
    List<List<Integer>> c =
        LatencyClustering.cluster(LatencyMatrix.of(names, raw, LatencyMatrix.Symmetry.MAX), 0.2);
    assertEquals(10, c.size());
  }
}
