package org.netweather.scheduler.cluster;

import java.util.List;

/**
 * Hosts grouped into logical clusters, with a cost model inside each cluster and one between each
 * pair of clusters (between their coordinators). Cluster 0's coordinator is the root.
 *
 * @param hosts host names
 * @param clusters host indices per cluster; the first member of each is its coordinator
 * @param intra the model inside each cluster
 * @param inter the model between clusters i and j (the diagonal is unused)
 */
public record BroadcastPlatform(
    List<String> hosts, List<List<Integer>> clusters, List<CommModel> intra, CommModel[][] inter) {
  public BroadcastPlatform {
    hosts = List.copyOf(hosts);
    clusters = clusters.stream().map(List::copyOf).toList();
    intra = List.copyOf(intra);
    if (intra.size() != clusters.size() || inter.length != clusters.size()) {
      throw new IllegalArgumentException(
          "one intra model per cluster and a square inter table " + "are required");
    }
  }

  /** Which cluster each host belongs to. */
  public int[] clusterOf() {
    int[] of = new int[hosts.size()];
    for (int c = 0; c < clusters.size(); c++) {
      for (int h : clusters.get(c)) {
        of[h] = c;
      }
    }
    return of;
  }

  /** The model between two hosts: the cluster's own, or the inter-cluster one. */
  public CommModel between(int[] clusterOf, int a, int b) {
    int x = clusterOf[a];
    int y = clusterOf[b];
    return x == y ? intra.get(x) : inter[x][y];
  }
}
