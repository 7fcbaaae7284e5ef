package org.netweather.scheduler.jacobi;

/**
 * How {@link JacobiScheduler} chooses.
 *
 * @param locus the host to start the resource list from; null for the fastest
 * @param ordering chaining from the tail (seed pseudocode) or by distance to the locus
 * @param solver the paper's closed form with both filters, or the memory-capped solver
 * @param maxDistance stop the list at the first host farther than this from the locus
 * @param errorMargin z of the robust mode: plan with P_i·(1 + z·mae_i/avail_i); 0 to plan on the
 *     forecasts themselves
 * @param distance the logical distance
 */
public record JacobiOptions(
    String locus,
    HostChain.Ordering ordering,
    Solver solver,
    double maxDistance,
    double errorMargin,
    DistanceFunction distance) {

  /** How strip areas are found for a candidate list. */
  public enum Solver {
    /**
     * The paper as written: closed-form balance, reject the candidate if any area is negative (F1)
     * or any strip overflows its host's memory (F2).
     */
    APPLES,
    /**
     * Closed form when it passes both filters; otherwise water-filling under the memory caps,
     * dropping hosts whose strip comes out empty and re-chaining the rest
     * (docs/schedulers/jacobi.md, "Beyond the paper").
     */
    MEMORY_CAPPED
  }

  public JacobiOptions {
    if (ordering == null || solver == null || distance == null) {
      throw new IllegalArgumentException("ordering, solver and distance are required");
    }
    if (!(maxDistance > 0)) {
      throw new IllegalArgumentException("maxDistance must be positive, got " + maxDistance);
    }
    if (!(errorMargin >= 0) || Double.isInfinite(errorMargin)) {
      throw new IllegalArgumentException("errorMargin must be finite and >= 0");
    }
  }

  /** Chaining, memory-capped, fastest host as locus, no distance limit, no error margin. */
  public static JacobiOptions defaults() {
    return new JacobiOptions(
        null,
        HostChain.Ordering.CHAIN,
        Solver.MEMORY_CAPPED,
        Double.POSITIVE_INFINITY,
        0,
        DistanceFunction.LOGICAL);
  }

  public JacobiOptions withLocus(String host) {
    return new JacobiOptions(host, ordering, solver, maxDistance, errorMargin, distance);
  }

  public JacobiOptions withOrdering(HostChain.Ordering o) {
    return new JacobiOptions(locus, o, solver, maxDistance, errorMargin, distance);
  }

  public JacobiOptions withSolver(Solver s) {
    return new JacobiOptions(locus, ordering, s, maxDistance, errorMargin, distance);
  }

  public JacobiOptions withMaxDistance(double seconds) {
    return new JacobiOptions(locus, ordering, solver, seconds, errorMargin, distance);
  }

  public JacobiOptions withErrorMargin(double z) {
    return new JacobiOptions(locus, ordering, solver, maxDistance, z, distance);
  }
}
