package org.netweather.scheduler.jacobi;

/**
 * How far apart two hosts are for strip placement: small means "good strip neighbours". Must be
 * non-negative; infinite means the two cannot be neighbours.
 */
@FunctionalInterface
public interface DistanceFunction {
  /**
   * The AppLeS logical distance (Berman et al., SC'96; docs/schedulers/jacobi.md, "Resource
   * selection"): {@code |P_i − P_j| + c(i,j)}, the difference in time per point plus the time to
   * exchange one element each way. It does not depend on the problem size, which is why the paper
   * calls it valid "for an arbitrary problem size".
   */
  DistanceFunction LOGICAL =
      (m, i, j) -> Math.abs(m.pointSeconds(i) - m.pointSeconds(j)) + m.elementExchangeSeconds(i, j);

  double distance(StripModel model, int i, int j);
}
