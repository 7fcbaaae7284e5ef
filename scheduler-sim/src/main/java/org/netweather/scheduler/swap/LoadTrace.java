package org.netweather.scheduler.swap;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A host's background run-queue over time: OFF (0) and ON periods alternate, with exponential or
 * Pareto(1.5) durations and ON levels from {1, 2} or U(0.1, 2) (docs/schedulers/swapping.md, "The
 * simulator"). Generated lazily from its own random stream, so every policy sees the same trace.
 */
final class LoadTrace {
  private final Random rnd;
  private final double onMean;
  private final double offMean;
  private final boolean pareto;
  private final boolean continuous;
  private final List<double[]> steps = new ArrayList<>(); // {start, level}
  private double end;

  LoadTrace(long seed, double onMean, double offMean, boolean pareto, boolean continuous) {
    this.rnd = new Random(seed);
    this.onMean = onMean;
    this.offMean = offMean;
    this.pareto = pareto;
    this.continuous = continuous;
    // Start at a random point of an OFF period so hosts are not in phase.
    end = -rnd.nextDouble() * offMean;
    steps.add(new double[] {end, 0});
    end += duration(offMean);
  }

  private double duration(double mean) {
    if (pareto) {
      double alpha = 1.5;
      double xm = mean * (alpha - 1) / alpha;
      return xm / Math.pow(1 - rnd.nextDouble(), 1 / alpha);
    }
    return -mean * Math.log(1 - rnd.nextDouble());
  }

  /** Background run-queue length at time t ≥ 0. */
  double at(double t) {
    if (onMean <= 0) {
      return 0;
    }
    while (end <= t) {
      boolean wasOn = steps.get(steps.size() - 1)[1] > 0;
      double level = wasOn ? 0 : continuous ? 0.1 + 1.9 * rnd.nextDouble() : 1 + rnd.nextInt(2);
      steps.add(new double[] {end, level});
      end += duration(wasOn ? offMean : onMean);
    }
    int lo = 0;
    int hi = steps.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (steps.get(mid)[0] <= t) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return steps.get(lo)[1];
  }
}
