package org.netweather.scheduler.swap;

/**
 * One cell of the swap experiment (docs/schedulers/swapping.md, "The simulator"): platform, load,
 * noise and swap cost.
 *
 * @param onMean mean ON duration of background load (s); 0 for idle hosts
 * @param heterogeneity speeds are 1 ± this, uniformly
 * @param noise σ of the Gaussian noise added to each load-average measurement
 */
public record SwapScenario(
    String name,
    int hosts,
    int active,
    double onMean,
    double offMean,
    boolean pareto,
    boolean continuous,
    double heterogeneity,
    double noise,
    double swapCost,
    int iterations,
    double work,
    double comm,
    double period) {

  private static SwapScenario of(
      String name,
      int hosts,
      int active,
      double on,
      double off,
      boolean pareto,
      boolean continuous,
      double het,
      double noise,
      double cost) {
    return new SwapScenario(
        name, hosts, active, on, off, pareto, continuous, het, noise, cost, 1800, 1.0, 0.02, 10);
  }

  /**
   * S1–S6 and N1–N4 as described in docs/schedulers/swapping.md, "The simulator". Where the text
   * names no load speed we use the slow fish-like 300 s / 600 s of S2; only S5 and N4 are called
   * "fast" (20 s / 40 s).
   */
  public static java.util.List<SwapScenario> table() {
    return java.util.List.of(
        of("S1", 4, 2, 0, 0, false, false, 0, 0, 2),
        of("S2", 4, 2, 300, 600, false, false, 0, 0, 2),
        of("S3", 16, 8, 300, 600, false, false, 0, 0, 2),
        of("S4", 16, 8, 300, 600, false, false, 0, 0, 30),
        of("S5", 16, 8, 20, 40, false, false, 0, 0, 2),
        of("S6", 16, 8, 300, 600, true, false, 0, 0, 2),
        of("N1", 16, 8, 300, 600, false, true, 0.2, 0.3, 2),
        of("N2", 16, 8, 300, 600, false, true, 0.2, 0.3, 10),
        of("N3", 4, 2, 0, 0, false, false, 0.02, 0.3, 2),
        of("N4", 16, 8, 20, 40, false, true, 0.2, 0.3, 5));
  }
}
