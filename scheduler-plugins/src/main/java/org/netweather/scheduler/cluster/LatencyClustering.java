package org.netweather.scheduler.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Groups hosts into logical clusters whose internal latencies stay within a relative bound.
 *
 * <pre>
 * The paper (Nasri, Steffenel, Trystram, CCGrid'07, §3) only says it groups nodes "for which
 * their incident edges respect a latency bound (by default 20%)", after ECO (Lowekamp and
 * Beguelin). docs/schedulers/clusters.md pins it down as complete-link agglomeration with a
 * relative
 * bound:
 *
 *   lmin(u) = min over v != u of lat(u, v)           nearest-neighbour latency
 *   for each edge (u, v) by increasing latency:      Kruskal order
 *     U = cluster(u) + cluster(v)
 *     merge if max lat inside U <= (1 + rho) * min over w in U of lmin(w)
 *
 * Complete link (max inside U) is what stops two far-apart singletons from merging: their one
 * edge is also their nearest-neighbour latency only if nothing else is closer, and the bound is
 * measured against the closest neighbour any member has, not against the edge itself.
 * </pre>
 *
 * <p>Cost: O(n² log n) for the sort plus, per merge attempt, O(|X|·|Y|) for the cross maximum (the
 * inside maxima are kept per cluster), which stays well under a second at 1 000 hosts.
 */
public final class LatencyClustering {
  /** The paper's default relative bound. */
  public static final double DEFAULT_BOUND = 0.20;

  private LatencyClustering() {}

  /** Clusters as lists of host indices, each sorted, ordered by their smallest index. */
  public static List<List<Integer>> cluster(LatencyMatrix m, double rho) {
    if (!(rho >= 0)) {
      throw new IllegalArgumentException("--bound must be >= 0, got " + rho);
    }
    int n = m.size();
    double[] lmin = new double[n];
    Arrays.fill(lmin, Double.POSITIVE_INFINITY);
    int edges = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double v = m.get(i, j);
        if (i != j && !Double.isNaN(v)) {
          lmin[i] = Math.min(lmin[i], v);
          if (i < j) {
            edges++;
          }
        }
      }
    }
    long[] order = new long[edges];
    double[] weight = new double[edges];
    int e = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        if (!Double.isNaN(m.get(i, j))) {
          order[e] = (long) i * n + j;
          weight[e++] = m.get(i, j);
        }
      }
    }
    Integer[] idx = new Integer[edges];
    for (int k = 0; k < edges; k++) {
      idx[k] = k;
    }
    // Ties broken by pair order so the result does not depend on the sort's stability.
    Arrays.sort(
        idx, Comparator.<Integer>comparingDouble(k -> weight[k]).thenComparingLong(k -> order[k]));

    int[] owner = new int[n];
    List<List<Integer>> members = new ArrayList<>();
    double[] inside = new double[n];
    double[] closest = new double[n];
    for (int i = 0; i < n; i++) {
      owner[i] = i;
      members.add(new ArrayList<>(List.of(i)));
      closest[i] = lmin[i];
    }
    // Clusters only grow, so their inside maximum only rises and their closest-neighbour
    // latency only falls: a rejected pair of clusters stays rejected, and need not be re-tested
    // for each of the |X|·|Y| edges between them.
    Set<Long> rejected = new HashSet<>();
    for (Integer k : idx) {
      int x = owner[(int) (order[k] / n)];
      int y = owner[(int) (order[k] % n)];
      if (x == y || rejected.contains((long) Math.min(x, y) * n + Math.max(x, y))) {
        continue;
      }
      double bound = (1 + rho) * Math.min(closest[x], closest[y]);
      boolean fits = Math.max(inside[x], inside[y]) <= bound;
      double max = Math.max(inside[x], inside[y]);
      for (int a : members.get(x)) {
        for (int b : members.get(y)) {
          double v = m.get(a, b);
          fits &= !Double.isNaN(v) && v <= bound;
          max = Math.max(max, v);
        }
        if (!fits) {
          break;
        }
      }
      if (!fits) {
        rejected.add((long) Math.min(x, y) * n + Math.max(x, y));
      } else {
        List<Integer> big =
            members.get(x).size() >= members.get(y).size() ? members.get(x) : members.get(y);
        int keep = big == members.get(x) ? x : y;
        int drop = keep == x ? y : x;
        for (int b : members.get(drop)) {
          owner[b] = keep;
          big.add(b);
        }
        members.set(drop, List.of());
        inside[keep] = max;
        closest[keep] = Math.min(closest[x], closest[y]);
      }
    }
    List<List<Integer>> out = new ArrayList<>();
    for (List<Integer> c : members) {
      if (!c.isEmpty()) {
        List<Integer> sorted = new ArrayList<>(c);
        sorted.sort(null);
        out.add(List.copyOf(sorted));
      }
    }
    out.sort(Comparator.comparingInt(c -> c.get(0)));
    return out;
  }

  /** The same clusters as host names. */
  public static List<List<String>> clusterNames(LatencyMatrix m, double rho) {
    return cluster(m, rho).stream().map(c -> c.stream().map(m::host).toList()).toList();
  }
}
