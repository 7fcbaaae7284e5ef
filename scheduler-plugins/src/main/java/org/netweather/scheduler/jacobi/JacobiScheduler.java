package org.netweather.scheduler.jacobi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.netweather.scheduler.frame.ResourceSnapshot;
import org.netweather.scheduler.frame.SnapshotConverter;
import org.netweather.scheduler.jacobi.JacobiSchedule.Candidate;
import org.netweather.scheduler.jacobi.StripBalancer.Balance;

/**
 * Chooses hosts and strip widths for an N×N Jacobi2D iteration: the fastest predicted iteration
 * over every prefix of the AppLeS resource list.
 *
 * <p>Berman, Wolski, Figueira, Schopf, Shao, SC'96, "AppLeS Jacobi2D" (reconstructed in
 * docs/schedulers/jacobi.md): start the list at a locus (the fastest host unless pinned), extend it
 * by logical distance ({@link HostChain}), and for k = 1..|list| balance the first k hosts so every
 * strip takes the same time (eq. 1–3, {@link StripBalancer}), reject the split if a strip's area is
 * negative (F1: its communication alone exceeds T) or does not fit in its host's free memory (F2),
 * and keep the fastest survivor. Widths are whole columns ({@link StripRounder}) and the prediction
 * is the slowest strip after rounding.
 *
 * <p>With {@link JacobiOptions.Solver#MEMORY_CAPPED} (the default) a candidate failing either
 * filter is solved again under the memory caps ({@link CappedStripBalancer},
 * docs/schedulers/jacobi.md, "Beyond the paper"): negative and overflowing strips are clamped,
 * strips that come out empty are dropped and the rest re-chained, since an empty strip cannot relay
 * borders. This finds the schedule of case J7 at N = 6000 where the paper finds none. A candidate
 * whose uncapped time (a lower bound on its capped time) already exceeds the best found is not
 * solved again.
 *
 * <p>Cost: O(n²) distance evaluations to build the list; then the closed-form time of every prefix
 * in O(1) each, and full evaluation (areas, filters, rounding: O(k log k)) only of the prefixes
 * whose closed-form time, a lower bound, is below the best prediction so far, in increasing order
 * of that bound. Lists of up to {@value #FULL_TABLE} hosts have every candidate evaluated, for the
 * report. A 1 000-host snapshot takes tens of milliseconds.
 */
public final class JacobiScheduler {
  /** Lists up to this long get every candidate evaluated for the report, winning or not. */
  static final int FULL_TABLE = 64;

  private JacobiScheduler() {}

  public static JacobiSchedule schedule(
      ResourceSnapshot snapshot, JacobiProblem problem, JacobiOptions options) {
    StripModel model = new StripModel(snapshot, problem, options.errorMargin());
    int[] usable = IntStream.range(0, snapshot.size()).filter(model::usable).toArray();
    if (usable.length == 0) {
      return new JacobiSchedule(
          problem.size(),
          List.of(),
          List.of(),
          List.of(),
          Double.NaN,
          Double.NaN,
          null,
          List.of(),
          List.of(),
          model.excluded());
    }
    int locus = locus(model, usable, options.locus());
    int[] list =
        HostChain.order(
            model, usable, locus, options.ordering(), options.distance(), options.maxDistance());
    double[] links = new double[Math.max(0, list.length - 1)];
    int firstGap = list.length; // first p whose link p→p+1 has no bandwidth forecast
    for (int p = 0; p + 1 < list.length; p++) {
      links[p] = model.borderSeconds(list[p], list[p + 1]);
      if (Double.isInfinite(links[p]) && firstGap == list.length) {
        firstGap = p;
      }
    }
    // Candidates share one list of names: a prefix view each, not a copy (n² names otherwise).
    List<String> names = List.copyOf(names(model, list));
    double[] bound = prefixBounds(model, list, links);
    Plan[] plans = new Plan[list.length + 1];
    Plan best = null;
    // Cheapest lower bound first: a candidate whose closed-form time already reaches the best
    // prediction cannot win (rounding and memory caps only add time), so the scan stops there.
    Integer[] byBound = new Integer[list.length];
    for (int k = 1; k <= list.length; k++) {
      byBound[k - 1] = k;
    }
    Arrays.sort(byBound, (x, y) -> Double.compare(bound[x], bound[y]));
    for (int k : byBound) {
      if (k - 1 > firstGap || (best != null && bound[k] >= best.predicted)) {
        break;
      }
      plans[k] = evaluate(model, Arrays.copyOf(list, k), comm(links, k), locus, options, best);
      if (plans[k].accepted()
          && (best == null
              || plans[k].predicted < best.predicted
              || (plans[k].predicted == best.predicted && k < best.set.length))) {
        best = plans[k];
      }
    }
    List<Candidate> candidates = new ArrayList<>();
    for (int k = 1; k <= list.length; k++) {
      Plan plan = plans[k];
      if (plan == null && k - 1 > firstGap) {
        plan =
            Plan.rejected(
                Arrays.copyOf(list, k),
                Double.NaN,
                "no bandwidth forecast between "
                    + model.name(list[firstGap])
                    + " and "
                    + model.name(list[firstGap + 1]));
      } else if (plan == null && list.length <= FULL_TABLE) {
        plan = evaluate(model, Arrays.copyOf(list, k), comm(links, k), locus, options, best);
      }
      candidates.add(
          plan == null
              ? new Candidate(
                  k,
                  names.subList(0, k),
                  bound[k],
                  Double.NaN,
                  "not evaluated: cannot beat " + seconds(best.predicted))
              // Same length means the prefix itself: the set only changes by dropping hosts.
              : new Candidate(
                  k,
                  plan.set.length == k ? names.subList(0, k) : names(model, plan.set),
                  plan.balanced,
                  plan.predicted,
                  plan.verdict));
    }
    if (best == null) {
      return new JacobiSchedule(
          problem.size(),
          List.of(),
          List.of(),
          List.of(),
          Double.NaN,
          Double.NaN,
          model.name(locus),
          names,
          candidates,
          model.excluded());
    }
    List<Integer> widths = new ArrayList<>();
    List<Double> seconds = new ArrayList<>();
    for (int i = 0; i < best.set.length; i++) {
      widths.add(best.widths[i]);
      seconds.add(best.stripSeconds[i]);
    }
    return new JacobiSchedule(
        problem.size(),
        names(model, best.set),
        widths,
        seconds,
        best.predicted,
        best.balanced,
        model.name(locus),
        names,
        candidates,
        model.excluded());
  }

  /**
   * The closed-form time of every prefix, in O(1) each: a lower bound on what that prefix can
   * achieve with rounding or memory caps. C_i changes only while i is the tail, so the sums over
   * the settled strips are kept and the tail's term added. Index k is the k-host prefix.
   */
  private static double[] prefixBounds(StripModel model, int[] list, double[] links) {
    double area = model.problem().area();
    double[] bound = new double[list.length + 1];
    double inverse = 0;
    double settled = 0; // Σ C_i/P_i over strips whose both neighbours are known
    for (int k = 1; k <= list.length; k++) {
      int tail = k - 1;
      if (k >= 2) {
        int i = tail - 1;
        settled += ((i >= 1 ? links[i - 1] : 0) + links[i]) / model.pointSeconds(list[i]);
      }
      double p = model.pointSeconds(list[tail]);
      inverse += 1 / p;
      double tailComm = k >= 2 ? links[tail - 1] : 0;
      bound[k] = (area + settled + tailComm / p) / inverse;
      if (Double.isNaN(bound[k])) {
        bound[k] = Double.POSITIVE_INFINITY;
      }
    }
    return bound;
  }

  private static double[] comm(double[] links, int k) {
    double[] c = new double[k];
    for (int p = 0; p + 1 < k; p++) {
      c[p] += links[p];
      c[p + 1] += links[p];
    }
    return c;
  }

  private static int locus(StripModel model, int[] usable, String pinned) {
    if (pinned == null) {
      return HostChain.fastest(model, usable);
    }
    int i = model.snapshot().indexOf(pinned);
    if (i < 0) {
      throw new IllegalArgumentException("locus: no host '" + pinned + "' in the snapshot");
    }
    if (!model.usable(i)) {
      throw new IllegalArgumentException(
          "locus: host '" + pinned + "' cannot be used (" + model.excluded().get(pinned) + ")");
    }
    return i;
  }

  private static Plan evaluate(
      StripModel model, int[] set, double[] c, int locus, JacobiOptions options, Plan best) {
    JacobiProblem problem = model.problem();
    double[] p = model.pointSeconds(set);
    double[] cap = model.capPoints(set);
    Balance b = StripBalancer.balance(p, c, problem.area());
    String violation = firstNegative(model, set, b);
    if (violation == null) {
      violation = firstOverflow(model, set, b);
    }
    if (violation == null) {
      int[] w = StripRounder.round(b.areas(), problem.size(), cap, p, c);
      if (w != null && Arrays.stream(w).allMatch(x -> x > 0)) {
        return Plan.accepted(set, w, p, c, problem, b.seconds(), "ok");
      }
      violation =
          w == null
              ? "no whole-column split fits in memory"
              : "rounds to an empty strip at " + model.name(set[indexOfZero(w)]);
    }
    if (options.solver() == JacobiOptions.Solver.APPLES) {
      return Plan.rejected(set, b.seconds(), violation);
    }
    if (best != null && b.seconds() >= best.predicted) {
      return Plan.rejected(
          set, b.seconds(), violation + "; capped cannot beat " + seconds(best.predicted));
    }
    return capped(model, set, p, c, locus, options, b.seconds());
  }

  private static Plan capped(
      StripModel model,
      int[] set,
      double[] p,
      double[] c,
      int locus,
      JacobiOptions options,
      double uncapped) {
    JacobiProblem problem = model.problem();
    List<String> dropped = new ArrayList<>();
    while (true) {
      double[] cap = model.capPoints(set);
      Balance b = CappedStripBalancer.balance(p, c, cap, problem.area());
      if (b == null) {
        double mib =
            Arrays.stream(cap).sum() * problem.bytesPerPoint() / SnapshotConverter.BYTES_PER_MIB;
        return Plan.rejected(
            set,
            uncapped,
            String.format(
                Locale.ROOT,
                "grid needs %.1f MiB, hosts hold %.1f MiB (F2)",
                problem.area() * problem.bytesPerPoint() / SnapshotConverter.BYTES_PER_MIB,
                mib));
      }
      int[] w = StripRounder.round(b.areas(), problem.size(), cap, p, c);
      if (w == null) {
        return Plan.rejected(set, uncapped, "no whole-column split fits in memory");
      }
      int[] current = set;
      int[] kept =
          IntStream.range(0, set.length).filter(i -> w[i] > 0).map(i -> current[i]).toArray();
      if (kept.length == set.length) {
        List<String> full = new ArrayList<>();
        for (int i = 0; i < set.length; i++) {
          if ((w[i] + 1.0) * problem.size() > cap[i]) {
            full.add(model.name(set[i]));
          }
        }
        String how =
            "ok (memory-capped"
                + (full.isEmpty() ? "" : "; full: " + String.join(", ", full))
                + (dropped.isEmpty() ? "" : "; dropped empty strips: " + String.join(", ", dropped))
                + ")";
        return Plan.accepted(set, w, p, c, problem, b.seconds(), how);
      }
      for (int i = 0; i < set.length; i++) {
        if (w[i] == 0) {
          dropped.add(model.name(set[i]));
        }
      }
      // Re-chain what is left: the dropped hosts' neighbours now exchange borders directly.
      int start =
          Arrays.stream(kept).anyMatch(x -> x == locus) ? locus : HostChain.fastest(model, kept);
      int[] next =
          HostChain.order(
              model, kept, start, options.ordering(), options.distance(), Double.POSITIVE_INFINITY);
      if (next.length < kept.length) {
        return Plan.rejected(
            set, uncapped, "dropping " + String.join(", ", dropped) + " leaves hosts unreachable");
      }
      set = next;
      p = model.pointSeconds(set);
      c = model.commSeconds(set);
      String unreachable = unreachable(model, set);
      if (unreachable != null) {
        return Plan.rejected(set, uncapped, unreachable);
      }
    }
  }

  private static String unreachable(StripModel model, int[] set) {
    for (int i = 0; i + 1 < set.length; i++) {
      if (Double.isInfinite(model.borderSeconds(set[i], set[i + 1]))) {
        return "no bandwidth forecast between "
            + model.name(set[i])
            + " and "
            + model.name(set[i + 1]);
      }
    }
    return null;
  }

  private static String firstNegative(StripModel model, int[] set, Balance b) {
    for (int i = 0; i < set.length; i++) {
      if (b.areas()[i] < 0) {
        return String.format(
            Locale.ROOT, "negative area at %s: %.0f points (F1)", model.name(set[i]), b.areas()[i]);
      }
    }
    return null;
  }

  private static String firstOverflow(StripModel model, int[] set, Balance b) {
    for (int i = 0; i < set.length; i++) {
      if (b.areas()[i] > model.capPoints(set[i])) {
        double bpp = model.problem().bytesPerPoint();
        return String.format(
            Locale.ROOT,
            "%s needs %.1f MiB, has %.1f MiB (F2)",
            model.name(set[i]),
            b.areas()[i] * bpp / SnapshotConverter.BYTES_PER_MIB,
            model.capPoints(set[i]) * bpp / SnapshotConverter.BYTES_PER_MIB);
      }
    }
    return null;
  }

  private static int indexOfZero(int[] w) {
    for (int i = 0; i < w.length; i++) {
      if (w[i] == 0) {
        return i;
      }
    }
    return -1;
  }

  private static List<String> names(StripModel model, int[] set) {
    List<String> names = new ArrayList<>(set.length);
    for (int i : set) {
      names.add(model.name(i));
    }
    return names;
  }

  static String seconds(double s) {
    return String.format(Locale.ROOT, "%.4f s", s);
  }

  /** One evaluated candidate: accepted with its widths, or rejected with why. */
  private static final class Plan {
    final int[] set;
    final int[] widths;
    final double[] stripSeconds;
    final double balanced;
    final double predicted;
    final String verdict;

    private Plan(
        int[] set,
        int[] widths,
        double[] stripSeconds,
        double balanced,
        double predicted,
        String verdict) {
      this.set = set;
      this.widths = widths;
      this.stripSeconds = stripSeconds;
      this.balanced = balanced;
      this.predicted = predicted;
      this.verdict = verdict;
    }

    static Plan accepted(
        int[] set,
        int[] w,
        double[] p,
        double[] c,
        JacobiProblem problem,
        double balanced,
        String verdict) {
      double[] t = new double[set.length];
      double max = 0;
      for (int i = 0; i < set.length; i++) {
        t[i] = (double) problem.size() * w[i] * p[i] + c[i];
        max = Math.max(max, t[i]);
      }
      return new Plan(set, w, t, balanced, max, verdict);
    }

    static Plan rejected(int[] set, double balanced, String why) {
      return new Plan(set, null, null, balanced, Double.NaN, why);
    }

    boolean accepted() {
      return widths != null;
    }
  }
}
