package org.netweather.scheduler.swap;

/**
 * The cost-benefit test of one candidate swap (docs/schedulers/swapping.md, "Our policy" step 4,
 * test W2): swap only if the predicted gain per iteration Δ is above a relative threshold, Δ/T > θ,
 * and pays back the swap cost over the horizon, Δ·min(R, H) > κ·C.
 */
public record PaybackGate(double theta, double kappa) {
  public boolean accept(
      double delta, double iterationTime, long remaining, double horizon, double cost) {
    return delta / iterationTime > theta
        && delta * Math.min((double) remaining, horizon) > kappa * cost;
  }
}
