package org.netweather.scheduler.cluster;

import java.util.ArrayList;
import java.util.List;
import org.netweather.scheduler.frame.ResourceSnapshot;

/**
 * Builds a broadcast platform from a NetWeather snapshot: latency clusters, then pLogP models with
 * L = the one-way latency (half the NWS round trip) and g(m) = g0 + m/bandwidth.
 *
 * <p>The snapshot carries no pLogP series yet, so g(m) is affine in m with the per-message gap
 * {@code g0} given by the caller (default 10 µs, GigE-like); once the sensor's {@code
 * plogp.g:SRC->DST} series are in snapshots, the measured table replaces it. Inside a cluster the
 * means over its pairs are used; between clusters the coordinators' pair.
 */
public final class SnapshotPlatform {
  private SnapshotPlatform() {}

  /** Hosts clustered with bound rho; the root's cluster comes first with the root first. */
  public static BroadcastPlatform of(ResourceSnapshot s, double rho, String root, double g0) {
    int n = s.size();
    List<String> names = new ArrayList<>();
    double[][] raw = new double[n][n];
    for (int i = 0; i < n; i++) {
      names.add(s.host(i).name());
      for (int j = 0; j < n; j++) {
        raw[i][j] = i == j ? 0 : s.latency(i, j);
      }
    }
    int r = root == null ? 0 : s.indexOf(root);
    if (r < 0) {
      throw new IllegalArgumentException("--root: host '" + root + "' is not in the snapshot");
    }
    List<List<Integer>> clusters = new ArrayList<>();
    for (List<Integer> c :
        LatencyClustering.cluster(LatencyMatrix.of(names, raw, LatencyMatrix.Symmetry.MAX), rho)) {
      List<Integer> m = new ArrayList<>(c);
      if (m.remove(Integer.valueOf(r))) {
        m.add(0, r);
        clusters.add(0, m);
      } else {
        clusters.add(m);
      }
    }
    List<CommModel> intra = new ArrayList<>();
    for (List<Integer> c : clusters) {
      double lat = 0;
      double bw = 0;
      int pairs = 0;
      for (int a : c) {
        for (int b : c) {
          if (a != b && !Double.isNaN(s.latency(a, b)) && s.bandwidth(a, b) > 0) {
            lat += s.latency(a, b) / 2;
            bw += s.bandwidth(a, b);
            pairs++;
          }
        }
      }
      intra.add(
          pairs == 0
              ? CommModel.pLogP(0, g0, Double.POSITIVE_INFINITY)
              : CommModel.pLogP(lat / pairs, g0, bw / pairs));
    }
    CommModel[][] inter = new CommModel[clusters.size()][clusters.size()];
    for (int x = 0; x < clusters.size(); x++) {
      for (int y = 0; y < clusters.size(); y++) {
        if (x != y) {
          int a = clusters.get(x).get(0);
          int b = clusters.get(y).get(0);
          double bw = s.bandwidth(a, b);
          double lat = s.latency(a, b);
          if (!(bw > 0) || Double.isNaN(lat)) {
            throw new IllegalArgumentException(
                "no current latency and bandwidth between "
                    + "coordinators "
                    + names.get(a)
                    + " and "
                    + names.get(b));
          }
          inter[x][y] = CommModel.pLogP(lat / 2, g0, bw);
        }
      }
    }
    return new BroadcastPlatform(names, clusters, intra, inter);
  }
}
