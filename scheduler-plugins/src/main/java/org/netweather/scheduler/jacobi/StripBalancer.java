package org.netweather.scheduler.jacobi;

/**
 * Equal-time strip areas in closed form: every strip finishes an iteration at the same T.
 *
 * <pre>
 *   T_i = A_i·P_i + C_i = T for all i,   Σ A_i = N²
 *   ⇒ T = (N² + Σ C_i/P_i) / Σ 1/P_i,   A_i = (T − C_i) / P_i
 * </pre>
 *
 * Berman et al., SC'96 ("time balancing") solves the same linear system by Gaussian elimination;
 * the closed form (docs/schedulers/jacobi.md, "Model") is O(k) and exact. Areas may come out
 * negative when a strip's communication alone exceeds T: that is filter F1's business, not this
 * class's.
 */
public final class StripBalancer {
  private StripBalancer() {}

  /** The balanced time and areas for times per point {@code p} and communication {@code c}. */
  public static Balance balance(double[] p, double[] c, double area) {
    double inverse = 0;
    double weighted = 0;
    for (int i = 0; i < p.length; i++) {
      inverse += 1 / p[i];
      weighted += c[i] / p[i];
    }
    double t = (area + weighted) / inverse;
    double[] a = new double[p.length];
    for (int i = 0; i < p.length; i++) {
      a[i] = (t - c[i]) / p[i];
    }
    return new Balance(t, a);
  }

  /**
   * A balanced split.
   *
   * @param seconds the common iteration time T
   * @param areas points per strip, in strip order
   */
  public record Balance(double seconds, double[] areas) {}
}
