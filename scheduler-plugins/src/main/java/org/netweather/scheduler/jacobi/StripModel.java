package org.netweather.scheduler.jacobi;

import java.util.LinkedHashMap;
import java.util.Map;
import org.netweather.scheduler.frame.HostResources;
import org.netweather.scheduler.frame.ResourceSnapshot;

/**
 * Per-host costs of the AppLeS strip model: the forecast time to update one point and to exchange
 * borders with a neighbour, and the memory cap, all from one snapshot.
 *
 * <pre>
 *   P_i = secondsPerPoint_i / avail_i · (1 + z · mae_i / avail_i)     time per point
 *   border(i,j) = N·e/bw(i→j) + N·e/bw(j→i) + (rtt(i,j) + rtt(j,i))/2  one exchange per iteration
 *   cap_i = memFree_i / bytesPerPoint                                  points that fit
 * </pre>
 *
 * z is the error margin of the robust mode (0: plan on the forecast itself). Latency is charged
 * when the snapshot has it, half a round trip per message; the paper's model has bandwidth only,
 * and with latency missing the two agree. A host without a usable CPU forecast or {@code
 * secondsPerPoint} is excluded, with the reason kept for the report; a host without a memory
 * forecast is not capped.
 */
public final class StripModel {
  private final ResourceSnapshot snapshot;
  private final JacobiProblem problem;
  private final double[] pointSeconds;
  private final double[] capPoints;
  private final Map<String, String> excluded = new LinkedHashMap<>();

  public StripModel(ResourceSnapshot snapshot, JacobiProblem problem, double errorMargin) {
    this.snapshot = snapshot;
    this.problem = problem;
    int n = snapshot.size();
    pointSeconds = new double[n];
    capPoints = new double[n];
    double fallback = snapshot.parameter("secondsPerPoint", Double.NaN);
    for (int i = 0; i < n; i++) {
      HostResources h = snapshot.host(i);
      double t = h.parameter("secondsPerPoint", fallback);
      double avail = h.cpuAvailability().value();
      pointSeconds[i] = Double.NaN;
      if (!(t > 0) || Double.isInfinite(t)) {
        excluded.put(h.name(), "no secondsPerPoint parameter");
      } else if (Double.isNaN(avail)) {
        excluded.put(h.name(), "no CPU availability forecast");
      } else if (h.cpuAvailability().stale()) {
        excluded.put(h.name(), "stale CPU availability forecast");
      } else if (!(avail > 0)) {
        excluded.put(h.name(), "no CPU available");
      } else {
        double mae = h.cpuAvailability().error();
        double margin = errorMargin > 0 && mae > 0 ? 1 + errorMargin * mae / avail : 1;
        pointSeconds[i] = t / avail * margin;
      }
      double mem = h.memoryFree().usable() ? h.memoryFree().value() : Double.POSITIVE_INFINITY;
      capPoints[i] = mem / problem.bytesPerPoint();
    }
  }

  public ResourceSnapshot snapshot() {
    return snapshot;
  }

  public JacobiProblem problem() {
    return problem;
  }

  /** P_i in seconds per point; NaN for an excluded host. */
  public double pointSeconds(int i) {
    return pointSeconds[i];
  }

  /** The most points host i can hold; infinite without a memory forecast. */
  public double capPoints(int i) {
    return capPoints[i];
  }

  public boolean usable(int i) {
    return !Double.isNaN(pointSeconds[i]);
  }

  /** Hosts left out, with why, in snapshot order. */
  public Map<String, String> excluded() {
    return excluded;
  }

  public String name(int i) {
    return snapshot.host(i).name();
  }

  /**
   * Seconds for i and j to send each other one element: c(i,j) of the logical distance. Infinite
   * when either direction has no bandwidth forecast.
   */
  public double elementExchangeSeconds(int i, int j) {
    double e = problem.bytesPerElement();
    return transfer(e, snapshot.bandwidth(i, j)) + transfer(e, snapshot.bandwidth(j, i));
  }

  /** Seconds for i and j to exchange one border (N elements each way) per iteration. */
  public double borderSeconds(int i, int j) {
    double bytes = problem.size() * problem.bytesPerElement();
    double cost =
        transfer(bytes, snapshot.bandwidth(i, j)) + transfer(bytes, snapshot.bandwidth(j, i));
    double rttIj = snapshot.latency(i, j);
    double rttJi = snapshot.latency(j, i);
    if (!Double.isNaN(rttIj) || !Double.isNaN(rttJi)) {
      // One message each way: half a round trip each, using whichever direction we know.
      cost += (Double.isNaN(rttIj) ? rttJi : rttIj) / 2 + (Double.isNaN(rttJi) ? rttIj : rttJi) / 2;
    }
    return cost;
  }

  /** C_i for every strip of {@code order}: the border exchanges with its list neighbours. */
  public double[] commSeconds(int[] order) {
    double[] c = new double[order.length];
    for (int p = 0; p + 1 < order.length; p++) {
      double b = borderSeconds(order[p], order[p + 1]);
      c[p] += b;
      c[p + 1] += b;
    }
    return c;
  }

  /** P_i for every strip of {@code order}. */
  public double[] pointSeconds(int[] order) {
    double[] p = new double[order.length];
    for (int k = 0; k < order.length; k++) {
      p[k] = pointSeconds[order[k]];
    }
    return p;
  }

  /** cap_i for every strip of {@code order}. */
  public double[] capPoints(int[] order) {
    double[] c = new double[order.length];
    for (int k = 0; k < order.length; k++) {
      c[k] = capPoints[order[k]];
    }
    return c;
  }

  private static double transfer(double bytes, double bandwidth) {
    if (bytes == 0) {
      return 0;
    }
    return bandwidth > 0 ? bytes / bandwidth : Double.POSITIVE_INFINITY;
  }
}
