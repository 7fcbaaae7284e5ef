package org.netweather.scheduler.pipeline;

import java.util.List;

/**
 * Chooses the cluster for each query (unit of work) of a multi-query workload: MCI, MAC, MET.
 *
 * <pre>
 * Spencer et al., SC'02, §6:
 *   MCI  fewest active filter-group instances; static placement
 *   MAC  highest average NWS CPU availability over the cluster's nodes; FCP placement
 *   MET  minimum estimated execution time of a dynamic (FCP) schedule on each cluster
 * Queries are scheduled one at a time and the caller updates the resource view in between.
 * Ties go to the first cluster listed.
 * </pre>
 */
public final class MultiQueryScheduler {
  private MultiQueryScheduler() {}

  public enum Strategy {
    MCI,
    MAC,
    MET
  }

  /** A candidate cluster and how many filter-group instances are active on it now. */
  public record Candidate(String name, Topology topology, int activeInstances) {}

  /** The chosen cluster's index and, for MET, every cluster's EET (NaN otherwise). */
  public record Choice(int cluster, double[] estimates) {}

  public static Choice choose(Strategy strategy, Pipeline pipeline, List<Candidate> clusters) {
    if (clusters.isEmpty()) {
      throw new IllegalArgumentException("no cluster to choose from");
    }
    double[] eet = new double[clusters.size()];
    java.util.Arrays.fill(eet, Double.NaN);
    int best = 0;
    for (int c = 0; c < clusters.size(); c++) {
      Candidate k = clusters.get(c);
      boolean better =
          switch (strategy) {
            case MCI -> k.activeInstances() < clusters.get(best).activeInstances();
            case MAC ->
                averageAvailability(k.topology())
                    > averageAvailability(clusters.get(best).topology());
            case MET -> {
              eet[c] = FcpScheduler.schedule(pipeline, k.topology()).estimatedSeconds();
              yield c > 0 && eet[c] < eet[best];
            }
          };
      if (better) {
        best = c;
      }
    }
    return new Choice(best, eet);
  }

  static double averageAvailability(Topology t) {
    double sum = 0;
    for (int h = 0; h < t.size(); h++) {
      sum += t.availability(h);
    }
    return t.size() == 0 ? 0 : sum / t.size();
  }

  /**
   * Arrival times of N queries spread over {@code window} seconds, first at 0 and last at the end:
   * k·window/(N−1). The paper's "one every 28.2 s" for 18 queries over 8 minutes is this rule, not
   * window/N (docs/schedulers/pipelines.md).
   */
  public static double[] arrivals(int queries, double window) {
    if (queries < 1) {
      throw new IllegalArgumentException("need at least one query");
    }
    double[] t = new double[queries];
    for (int k = 0; k < queries; k++) {
      t[k] = queries == 1 ? 0 : k * window / (queries - 1);
    }
    return t;
  }
}
