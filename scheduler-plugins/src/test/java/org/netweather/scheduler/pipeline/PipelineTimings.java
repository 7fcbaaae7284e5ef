package org.netweather.scheduler.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.netweather.scheduler.cluster.LatencyClustering;
import org.netweather.scheduler.cluster.LatencyMatrix;
import org.netweather.scheduler.frame.Estimate;
import org.netweather.scheduler.frame.HostResources;
import org.netweather.scheduler.frame.ResourceSnapshot;

/**
 * Not a test: times clustering 1 000 hosts and scheduling a 5-filter pipeline over 1 000 hosts
 * (issue 7's benchmark). Run with the test class path; each figure is the best of 5 runs after 3
 * warm-ups, on whatever machine runs it.
 */
public final class PipelineTimings {
  private PipelineTimings() {}

  public static void main(String[] args) {
    int n = 1000;
    Random rnd = new Random(1);
    List<String> names = new ArrayList<>();
    double[][] lat = new double[n][n];
    for (int i = 0; i < n; i++) {
      names.add("h" + i);
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < i; j++) {
        double base = i % 20 == j % 20 ? 50 : 1000 + 100 * Math.abs(i % 20 - j % 20);
        lat[i][j] = lat[j][i] = base * (1 + 0.05 * rnd.nextDouble());
      }
    }
    LatencyMatrix m = LatencyMatrix.of(names, lat, LatencyMatrix.Symmetry.MAX);
    ResourceSnapshot.Builder b = ResourceSnapshot.builder("big");
    for (int i = 0; i < n; i++) {
      b.host(HostResources.of("h" + i, 0.5 + 0.5 * rnd.nextDouble(), 1e9, Map.of()));
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (i != j) {
          b.link("h" + i, "h" + j, Estimate.of(1e6 + 1e7 * rnd.nextDouble()), Estimate.of(1e-3));
        }
      }
    }
    Topology topo = new Topology(b.build(), List.of());
    List<Filter> fs = new ArrayList<>();
    fs.add(
        new Filter(
            new FilterStats("F0", 0, 0, 0, 10, 0, 0, 0, 10, 0.1, 0, 0, 0, 1000, 1e8),
            List.of("h0", "h1", "h2", "h3"),
            0));
    for (int k = 1; k < 5; k++) {
      fs.add(
          new Filter(
              new FilterStats(
                  "F" + k, 0, 0, 0, 20 * k, 0, 0, 0, 20 * k, 0.1, 0, 1000, 1e8, 1000, 1e8),
              List.of(),
              0));
    }
    Pipeline p = new Pipeline(fs, List.of());
    for (String what : new String[] {"cluster", "fcp", "bfc"}) {
      long best = Long.MAX_VALUE;
      for (int r = 0; r < 8; r++) {
        long t0 = System.nanoTime();
        switch (what) {
          case "cluster" -> LatencyClustering.cluster(m, 0.2);
          case "fcp" -> FcpScheduler.schedule(p, topo);
          default -> BfcScheduler.schedule(p, topo);
        }
        long t = System.nanoTime() - t0;
        if (r >= 3) {
          best = Math.min(best, t);
        }
      }
      System.out.printf("%-8s 1000 hosts: %.1f ms%n", what, best / 1e6);
    }
  }
}
