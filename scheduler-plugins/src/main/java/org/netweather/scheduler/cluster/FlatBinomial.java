package org.netweather.scheduler.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Predicts a grid-unaware binomial broadcast: the baseline the hierarchical plan is set against.
 *
 * <pre>
 * MPICH's binomial order: with s the largest power of two below P, round by round every rank
 * r that is a multiple of 2s sends to r + s, then s halves (farthest child first). A send
 * from a to b starts when a is free, occupies a for g_ab(m) and arrives L_ab later, with the
 * model of the pair (intra-cluster or WAN). With ranks laid out cluster by cluster only the
 * first rounds cross the WAN; with random ranks most sends do, which is why the paper's "twice
 * as fast" holds against random placement (docs/schedulers/clusters.md, worked cases P4). This
 * order reproduces P4's
 * contiguous figures (16 694 µs at 8 KiB, 79 598 µs at 512 KiB) exactly.
 * </pre>
 */
public final class FlatBinomial {
  private FlatBinomial() {}

  /** Completion time with ranks in the given host order (ranks.get(0) is the root). */
  public static double time(BroadcastPlatform platform, List<Integer> ranks, double bytes) {
    int[] clusterOf = platform.clusterOf();
    int p = ranks.size();
    double[] free = new double[p];
    double[] got = new double[p];
    int top = Integer.highestOneBit(Math.max(1, p - 1));
    for (int step = top; step >= 1; step >>= 1) {
      for (int r = 0; r + step < p; r += 2 * step) {
        CommModel m = platform.between(clusterOf, ranks.get(r), ranks.get(r + step));
        double start = Math.max(free[r], got[r]);
        double g = m.gap(bytes);
        got[r + step] = start + g + m.latency();
        free[r + step] = got[r + step];
        free[r] = start + g;
      }
    }
    double end = 0;
    for (double t : got) {
      end = Math.max(end, t);
    }
    return end;
  }

  /** Ranks contiguous by cluster, clusters in platform order. */
  public static double contiguous(BroadcastPlatform platform, double bytes) {
    List<Integer> ranks = new ArrayList<>();
    platform.clusters().forEach(ranks::addAll);
    return time(platform, ranks, bytes);
  }

  /** Mean over {@code trials} random rank placements, the root kept at rank 0. */
  public static double random(BroadcastPlatform platform, double bytes, int trials, long seed) {
    List<Integer> ranks = new ArrayList<>();
    platform.clusters().forEach(ranks::addAll);
    Integer root = ranks.remove(0);
    Random rnd = new Random(seed);
    double sum = 0;
    for (int t = 0; t < trials; t++) {
      List<Integer> shuffled = new ArrayList<>(ranks);
      Collections.shuffle(shuffled, rnd);
      shuffled.add(0, root);
      sum += time(platform, shuffled, bytes);
    }
    return sum / trials;
  }
}
