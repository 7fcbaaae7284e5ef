package org.netweather.scheduler.cluster;

import java.util.List;

/**
 * Pairwise latencies between named hosts, symmetrised, in one unit of the caller's choice.
 *
 * <p>NaN marks a pair measured in neither direction; such a host may stay a singleton. The diagonal
 * is ignored.
 */
public final class LatencyMatrix {
  /** How to combine lat(i,j) and lat(j,i) when both are known (docs/schedulers/clusters.md). */
  public enum Symmetry {
    MAX,
    MEAN
  }

  private final List<String> hosts;
  private final double[] lat;

  private LatencyMatrix(List<String> hosts, double[] lat) {
    this.hosts = List.copyOf(hosts);
    this.lat = lat;
  }

  /** From a full square matrix, row = source; {@code raw[i][j]} may be NaN. */
  public static LatencyMatrix of(List<String> hosts, double[][] raw, Symmetry symmetry) {
    int n = hosts.size();
    if (raw.length != n) {
      throw new IllegalArgumentException(
          "latency matrix has " + raw.length + " rows for " + n + " hosts");
    }
    double[] lat = new double[n * n];
    for (int i = 0; i < n; i++) {
      if (raw[i].length != n) {
        throw new IllegalArgumentException(
            "latency row " + hosts.get(i) + " has " + raw[i].length + " cells, expected " + n);
      }
      for (int j = 0; j < n; j++) {
        double a = raw[i][j];
        double b = raw[j][i];
        if (a < 0 || b < 0) {
          throw new IllegalArgumentException(
              "negative latency between " + hosts.get(i) + " and " + hosts.get(j));
        }
        double v;
        if (Double.isNaN(a)) {
          v = b;
        } else if (Double.isNaN(b)) {
          v = a;
        } else {
          v = symmetry == Symmetry.MAX ? Math.max(a, b) : (a + b) / 2;
        }
        lat[i * n + j] = i == j ? 0 : v;
      }
    }
    return new LatencyMatrix(hosts, lat);
  }

  public int size() {
    return hosts.size();
  }

  public List<String> hosts() {
    return hosts;
  }

  public String host(int i) {
    return hosts.get(i);
  }

  /** The symmetrised latency, NaN when unmeasured. */
  public double get(int i, int j) {
    return lat[i * hosts.size() + j];
  }
}
