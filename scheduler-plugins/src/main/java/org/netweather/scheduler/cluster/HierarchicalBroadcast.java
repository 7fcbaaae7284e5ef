package org.netweather.scheduler.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * Plans a two-level broadcast: an algorithm per cluster (poly-model), ECEF between clusters.
 *
 * <pre>
 * Nasri, Steffenel, Trystram, CCGrid'07, §3 and §4: each logical cluster gets the broadcast
 * algorithm its chosen model predicts fastest; the coordinators are served by ECEF
 * ({@link EcefScheduler}); the makespan is the latest coordinator's ready time plus its
 * cluster's broadcast. The paper's claim (§4.4, Figure 6) is that this is at least twice as
 * fast as a grid-unaware binomial tree; docs/schedulers/clusters.md, worked cases P4 shows that
 * holds against random
 * rank placement and shrinks to about 1.7–1.8× against cluster-contiguous ranks, so
 * {@link FlatBinomial} reports both.
 * </pre>
 */
public final class HierarchicalBroadcast {
  private HierarchicalBroadcast() {}

  /** The plan: per-cluster choices, the inter-cluster schedule and the predicted makespan. */
  public record Plan(
      List<ModelSelector.Choice> perCluster, EcefScheduler.Schedule inter, double makespan) {}

  /**
   * Plans a broadcast of {@code bytes}: a model per cluster, then the schedule between clusters.
   *
   * @param selectors one per cluster (its candidate models and measurements)
   * @param measurements per cluster, the experiment base (may be empty lists)
   */
  public static Plan plan(
      BroadcastPlatform platform,
      double bytes,
      List<ModelSelector> selectors,
      List<List<ModelSelector.Measurement>> measurements) {
    int n = platform.clusters().size();
    List<ModelSelector.Choice> choices = new ArrayList<>();
    double[] intra = new double[n];
    for (int c = 0; c < n; c++) {
      int p = platform.clusters().get(c).size();
      ModelSelector.Choice choice = selectors.get(c).choose(measurements.get(c), p, bytes);
      if (p == 1) {
        // Table 4's single machine: "linear", nothing to send.
        choice =
            new ModelSelector.Choice(
                BroadcastAlgorithm.LINEAR,
                choice.model(),
                BroadcastAlgorithm.LINEAR.plan(choice.model(), 1, bytes),
                Double.NaN);
      }
      choices.add(choice);
      intra[c] = choice.plan().time();
    }
    double[][] lat = new double[n][n];
    double[][] gap = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (i != j) {
          lat[i][j] = platform.inter()[i][j].latency();
          gap[i][j] = platform.inter()[i][j].gap(bytes);
        }
      }
    }
    EcefScheduler.Schedule schedule = EcefScheduler.best(0, lat, gap, intra);
    return new Plan(List.copyOf(choices), schedule, schedule.makespan());
  }

  /** With the platform's own intra models and no measurements. */
  public static Plan plan(BroadcastPlatform platform, double bytes) {
    List<ModelSelector> selectors = new ArrayList<>();
    List<List<ModelSelector.Measurement>> none = new ArrayList<>();
    for (CommModel m : platform.intra()) {
      selectors.add(new ModelSelector(List.of(m)));
      none.add(List.of());
    }
    return plan(platform, bytes, selectors, none);
  }
}
