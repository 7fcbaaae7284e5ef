package org.netweather.scheduler.jacobi;

import java.util.Arrays;

/**
 * The fastest split when strips may not exceed their hosts' memory: min T subject to {@code A_i·P_i
 * + C_i ≤ T}, {@code 0 ≤ A_i ≤ cap_i}, {@code Σ A_i = N²}.
 *
 * <p>This is water-filling (docs/schedulers/jacobi.md, "Beyond the paper"): at time T host i can
 * take {@code A_i(T) = clamp((T − C_i)/P_i, 0, cap_i)} points, a non-decreasing piecewise-linear
 * function with breakpoints where a host starts ({@code T = C_i}) and where it fills up ({@code T =
 * C_i + P_i·cap_i}). Sweeping the sorted breakpoints finds the T at which the sum reaches N²
 * exactly, in O(k log k), with no bisection tolerance to choose. Unlike the paper's closed form
 * plus filter F2, a host that would overflow is filled to its cap and the rest is shared by the
 * others, which removes the dead end of case J7.
 */
public final class CappedStripBalancer {
  private CappedStripBalancer() {}

  /** The capped balance, or null when the hosts cannot hold N² points between them. */
  public static StripBalancer.Balance balance(double[] p, double[] c, double[] cap, double area) {
    int k = p.length;
    double total = 0;
    for (double x : cap) {
      total += x;
    }
    if (total < area * (1 - 1e-12)) {
      return null;
    }
    // Breakpoints: (time, change in slope of A(T)).
    double[][] events = new double[2 * k][];
    int n = 0;
    for (int i = 0; i < k; i++) {
      events[n++] = new double[] {c[i], 1 / p[i]};
      if (Double.isFinite(cap[i])) {
        events[n++] = new double[] {c[i] + p[i] * cap[i], -1 / p[i]};
      }
    }
    double[][] sorted = Arrays.copyOf(events, n);
    Arrays.sort(sorted, (x, y) -> Double.compare(x[0], y[0]));
    double t = sorted[0][0];
    double filled = 0;
    double slope = 0;
    double solution = Double.NaN;
    for (double[] e : sorted) {
      if (slope > 0 && filled + slope * (e[0] - t) >= area) {
        solution = t + (area - filled) / slope;
        break;
      }
      filled += slope * (e[0] - t);
      t = e[0];
      slope += e[1];
    }
    if (Double.isNaN(solution)) {
      // Past the last breakpoint: either some host is uncapped, or every host is full at t.
      solution = slope > 1e-300 ? t + Math.max(0, area - filled) / slope : t;
    }
    double[] a = new double[k];
    for (int i = 0; i < k; i++) {
      a[i] = Math.min(cap[i], Math.max(0, (solution - c[i]) / p[i]));
    }
    return new StripBalancer.Balance(solution, a);
  }
}
