package org.netweather.scheduler.cluster;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses, for one cluster, a cost model per broadcast algorithm and then the algorithm.
 *
 * <pre>
 * Nasri, Steffenel, Trystram, CCGrid'07, §3 ("poly-model"), docs/schedulers/clusters.md phase 2:
 *   Poly-adapt-1: for each algorithm a, M*(a) = the candidate model whose predictions best
 *                 match the measured collective times of a on this cluster (least mean
 *                 relative error over the measured sizes).
 *   Poly-adapt-2: a* = argmin over a of pred_{M*(a)}(a, P, m).
 * With no measurements for an algorithm, the first candidate is used: callers list the model
 * they trust most (pLogP when the sensor measured it) first.
 * </pre>
 */
public final class ModelSelector {
  private final List<CommModel> candidates;

  public ModelSelector(List<CommModel> candidates) {
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException("need at least one candidate model");
    }
    this.candidates = List.copyOf(candidates);
  }

  /** A measured broadcast: algorithm, process count, bytes, time. */
  public record Measurement(
      BroadcastAlgorithm algorithm, int processes, double bytes, double time) {}

  /** The chosen model per algorithm, with its mean relative error (NaN when unmeasured). */
  public record Fit(CommModel model, double meanRelativeError) {}

  /** Poly-adapt-1. */
  public Map<BroadcastAlgorithm, Fit> fit(List<Measurement> base) {
    Map<BroadcastAlgorithm, Fit> out = new EnumMap<>(BroadcastAlgorithm.class);
    for (BroadcastAlgorithm a : BroadcastAlgorithm.values()) {
      List<Measurement> mine = new ArrayList<>();
      for (Measurement x : base) {
        if (x.algorithm() == a && x.time() > 0) {
          mine.add(x);
        }
      }
      Fit best = new Fit(candidates.get(0), Double.NaN);
      for (CommModel c : candidates) {
        if (mine.isEmpty()) {
          break;
        }
        double err = 0;
        for (Measurement x : mine) {
          err += Math.abs(a.cost(c, x.processes(), x.bytes()) - x.time()) / x.time();
        }
        err /= mine.size();
        if (Double.isNaN(best.meanRelativeError()) || err < best.meanRelativeError()) {
          best = new Fit(c, err);
        }
      }
      out.put(a, best);
    }
    return out;
  }

  /** The outcome for one cluster: algorithm, the model that predicted it, and its plan. */
  public record Choice(
      BroadcastAlgorithm algorithm,
      CommModel model,
      BroadcastAlgorithm.Plan plan,
      double meanRelativeError) {}

  /** Poly-adapt-2 over the fits of {@link #fit}. */
  public static Choice choose(Map<BroadcastAlgorithm, Fit> fits, int processes, double bytes) {
    Choice best = null;
    for (Map.Entry<BroadcastAlgorithm, Fit> e : fits.entrySet()) {
      BroadcastAlgorithm.Plan plan = e.getKey().plan(e.getValue().model(), processes, bytes);
      if (best == null || plan.time() < best.plan().time()) {
        best = new Choice(e.getKey(), e.getValue().model(), plan, e.getValue().meanRelativeError());
      }
    }
    return best;
  }

  /** Both steps at once. */
  public Choice choose(List<Measurement> base, int processes, double bytes) {
    return choose(fit(base), processes, bytes);
  }
}
