package org.netweather.scheduler.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * Orders the inter-cluster sends of a hierarchical broadcast: Earliest Completing Edge First.
 *
 * <pre>
 * Bhat, Prasanna, Raghavendra, "Efficient collective communication in distributed
 * heterogeneous systems", HPDC'98; as used by the paper (§3, phase 3) and
 * docs/schedulers/clusters.md:
 *
 *   A = {root}, RT(root) = 0, B = the other clusters
 *   while B is not empty:
 *     (i, j) = argmin over i in A, j in B of  RT_i + g_ij(m) + L_ij    [+ T_j for ECEF-LAt]
 *     RT_j = RT_i + g_ij(m) + L_ij;  RT_i = RT_i + g_ij(m)   (the sender is busy one gap)
 *     move j to A
 *
 * ECEF-LAt (Barchet-Steffenel and Mounié, PMEO'06; selection rule from docs/schedulers/clusters.md,
 * unverified against the paper) adds the receiver's intra-cluster time T_j to the key. The
 * coordinator of j starts its intra-cluster broadcast once its own inter-cluster sends are
 * done (the paper ignores this overlap): makespan = max_j (final RT_j + T_j).
 * Ties go to the lower sender, then receiver index, so results are reproducible.
 * </pre>
 */
public final class EcefScheduler {
  private EcefScheduler() {}

  /** Which key to minimise. */
  public enum Variant {
    ECEF,
    ECEF_LAT
  }

  /** One inter-cluster send, times from the start of the broadcast. */
  public record Transfer(int sender, int receiver, double start, double arrival) {}

  /**
   * The schedule: sends in order, each cluster's arrival time and final ready time, the latest
   * arrival (the inter-cluster makespan) and the makespan including intra-cluster broadcasts.
   */
  public record Schedule(
      Variant variant,
      List<Transfer> transfers,
      double[] arrival,
      double[] ready,
      double interMakespan,
      double makespan) {}

  /**
   * Schedules the broadcast between cluster coordinators, starting at {@code root}.
   *
   * @param latency L_ij between coordinators
   * @param gap g_ij(m) between coordinators for this message
   * @param intra T_j, each cluster's intra-cluster broadcast time
   */
  public static Schedule schedule(
      int root, double[][] latency, double[][] gap, double[] intra, Variant variant) {
    int n = latency.length;
    double[] rt = new double[n];
    double[] arrival = new double[n];
    boolean[] inA = new boolean[n];
    inA[root] = true;
    List<Transfer> transfers = new ArrayList<>();
    for (int step = 1; step < n; step++) {
      int bi = -1;
      int bj = -1;
      double bestKey = Double.POSITIVE_INFINITY;
      for (int i = 0; i < n; i++) {
        if (!inA[i]) {
          continue;
        }
        for (int j = 0; j < n; j++) {
          if (inA[j]) {
            continue;
          }
          double key =
              rt[i] + gap[i][j] + latency[i][j] + (variant == Variant.ECEF_LAT ? intra[j] : 0);
          if (key < bestKey) {
            bestKey = key;
            bi = i;
            bj = j;
          }
        }
      }
      if (bi < 0) {
        throw new IllegalArgumentException("cluster unreachable from the root (no finite link)");
      }
      double start = rt[bi];
      rt[bj] = start + gap[bi][bj] + latency[bi][bj];
      arrival[bj] = rt[bj];
      rt[bi] = start + gap[bi][bj];
      inA[bj] = true;
      transfers.add(new Transfer(bi, bj, start, arrival[bj]));
    }
    double inter = 0;
    double makespan = 0;
    for (int j = 0; j < n; j++) {
      inter = Math.max(inter, arrival[j]);
      makespan = Math.max(makespan, rt[j] + intra[j]);
    }
    return new Schedule(variant, List.copyOf(transfers), arrival, rt, inter, makespan);
  }

  /** Both variants; the one with the smaller predicted makespan. */
  public static Schedule best(int root, double[][] latency, double[][] gap, double[] intra) {
    Schedule a = schedule(root, latency, gap, intra, Variant.ECEF);
    Schedule b = schedule(root, latency, gap, intra, Variant.ECEF_LAT);
    return b.makespan() < a.makespan() ? b : a;
  }
}
