package org.netweather.forecaster.battery;

import java.util.Arrays;

/**
 * The NWS two-level choice over a battery's members, kept twice: the faithful hierarchy over the
 * faithful members ([0, split) of the members' {@link ErrorLedger}) and, if the battery has more,
 * the extended hierarchy over all of them. The served choice among the two totals and the combiners
 * is {@link ServedChoice}'s.
 *
 * <p>From forc.c as described in docs/forecasting.md (Wolski, Spring, Hayes 1999, "mixture of
 * experts" in the SIGMETRICS PER 2003 abstract). Selector j follows the member with the lowest
 * error under rule j: squared (rules 0-7) or absolute (8-15) error, over the whole history (rules 0
 * and 8) or the last 1, 5, 10, 20, 30, 50 or 100 steps; a window of one follows whoever was best on
 * the last step. "Total MSE" and "Total MAE" each follow the selector with the lowest cumulative
 * error of its kind. The extended hierarchy applies the same rules over all members, its
 * whole-history rules counting from the members' baseline (the end of the burn-in).
 *
 * <p>Everything chosen here is chosen after a measurement and scored on the next one, so no level
 * ever sees the value it is scored on. Cost per step: O(rules) per hierarchy, the members' leaders
 * having been found by the ledger as it updated the sums; no allocation. The state of both
 * hierarchies is a few flat arrays, [hierarchy][...] (hierarchy 0 faithful, 1 extended), so that a
 * step touches a few contiguous cache lines rather than a dozen small objects.
 */
final class NwsSelection {
  /** Number of derived selectors per hierarchy. */
  static final int RULES = 16;

  private static final int HALF = RULES / 2;
  private static final long RULE_BITS = RULES - 1; // index bits of a rule's error key

  private final ErrorLedger members;
  private final int hierarchies; // 1, or 2 with extended members
  private final int[] choices; // [h][rule]: member each selector follows
  private final double[] selectorForecasts; // [h][rule]
  private final double[] selectorErrors; // [h][metric][rule], whole history
  private final int[] totalChoices; // [h][criterion]: rule each total follows
  private final double[] totalForecasts; // [h][criterion]
  private final double[] totalErrors; // [h][metric][criterion], whole history

  NwsSelection(ErrorLedger members) {
    this.members = members;
    this.hierarchies = members.split() < members.count() ? 2 : 1;
    this.choices = new int[hierarchies * RULES];
    this.selectorForecasts = new double[hierarchies * RULES];
    this.selectorErrors = new double[hierarchies * 2 * RULES];
    this.totalChoices = new int[hierarchies * 2];
    this.totalForecasts = new double[hierarchies * 2];
    this.totalErrors = new double[hierarchies * 4];
    Arrays.fill(selectorForecasts, Double.NaN);
    Arrays.fill(totalForecasts, Double.NaN);
  }

  /** Name of rule j: "min-mse", "min-mse-w1", ..., "min-mae-w100". */
  static String ruleName(int j) {
    String metric = j < HALF ? "min-mse" : "min-mae";
    int w = j % HALF;
    return w == 0 ? metric : metric + "-w" + BatteryLayout.NWS_WINDOWS[w - 1];
  }

  private static int metric(int rule) {
    return rule < HALF ? ErrorLedger.SQUARED : ErrorLedger.ABSOLUTE;
  }

  private static int window(int rule) {
    return rule % HALF - 1; // -1: the whole history
  }

  /** Scores every standing selector, total and served forecast against the new measurement. */
  void score(double actual) {
    score(actual, ErrorLedger.MAX_ERROR);
  }

  /** Scores the selectors' standing forecasts, each error counted as at most {@code cap}. */
  void score(double actual, double cap) {
    double[] f = selectorForecasts;
    double[] errors = selectorErrors;
    for (int h = 0; h < hierarchies; h++) {
      int at = h * RULES;
      int sq = h * 2 * RULES;
      for (int j = 0; j < RULES; j++) {
        double e = ErrorLedger.bounded(Math.abs(actual - f[at + j]), cap);
        errors[sq + j] += e * e;
        errors[sq + RULES + j] += e;
      }
      // Each total now follows the selector with the least error of its kind so far.
      totalChoices[h * 2] = ErrorLedger.argmin(errors, sq, RULES, RULE_BITS);
      totalChoices[h * 2 + 1] = ErrorLedger.argmin(errors, sq + RULES, RULES, RULE_BITS);
      for (int c = 0; c < 2; c++) {
        double e = ErrorLedger.bounded(Math.abs(actual - totalForecasts[h * 2 + c]), cap);
        totalErrors[h * 4 + c] += e * e;
        totalErrors[h * 4 + 2 + c] += e;
      }
    }
  }

  /**
   * Re-chooses every level for the next step. The extended hierarchy takes part once {@code
   * eligible} (after the burn-in); before that it copies the faithful choices.
   */
  void choose(double[] memberForecasts, boolean eligible) {
    ErrorLedger m = members;
    int[] chosen = choices;
    for (int j = 0; j < RULES; j++) {
      chosen[j] = m.leader(metric(j), window(j), 0);
    }
    finish(0, memberForecasts);
    if (hierarchies == 1) {
      return;
    }
    for (int j = 0; j < RULES; j++) {
      int best = chosen[j];
      if (eligible) {
        int metric = metric(j);
        int window = window(j);
        if (window < 0) {
          best = m.leaderSinceBaseline(metric);
        } else {
          // The best of all members is the better of the faithful leader and the extended
          // one, ties to the former (lower index): exactly what a scan of all of them finds.
          // Compared by key, without a branch: which one wins is anybody's guess.
          int other = m.leader(metric, window, 1);
          best = m.rank(metric, window, other) < m.rank(metric, window, best) ? other : best;
        }
      }
      chosen[RULES + j] = best;
    }
    finish(1, memberForecasts);
  }

  private void finish(int h, double[] memberForecasts) {
    int at = h * RULES;
    for (int j = 0; j < RULES; j++) {
      selectorForecasts[at + j] = memberForecasts[choices[at + j]];
    }
    totalForecasts[h * 2] = selectorForecasts[at + totalChoices[h * 2]];
    totalForecasts[h * 2 + 1] = selectorForecasts[at + totalChoices[h * 2 + 1]];
  }

  /** Forecast of faithful selector {@code j}. */
  double faithfulSelectorForecast(int j) {
    return selectorForecasts[j];
  }

  /** Forecast of selector {@code j} over all members (the faithful one if there are no others). */
  double extendedSelectorForecast(int j) {
    return selectorForecasts[(hierarchies - 1) * RULES + j];
  }

  /** Forecast of the faithful Total MSE (criterion 0) or Total MAE (1). */
  double faithfulForecast(int criterion) {
    return totalForecasts[criterion];
  }

  /** Forecast of the extended hierarchy's total (the faithful one if there are no others). */
  double extendedForecast(int criterion) {
    return totalForecasts[(hierarchies - 1) * 2 + criterion];
  }

  /** The member the extended total of {@code criterion} follows now. */
  int extendedMember(int criterion) {
    int h = hierarchies - 1;
    return choices[h * RULES + totalChoices[h * 2 + criterion]];
  }

  /** Whether there is an extended hierarchy. */
  boolean extended() {
    return hierarchies == 2;
  }

  /** Cumulative error of {@code metric} of the faithful total of {@code criterion}. */
  double faithfulError(int metric, int criterion) {
    return totalErrors[metric * 2 + criterion];
  }

  /** The member the faithful total of {@code criterion} follows now. */
  int faithfulMember(int criterion) {
    return choices[totalChoices[criterion]];
  }

  long stateBytes() {
    return StateBytes.object(4 + 4 + 4 * 6)
        + StateBytes.ints(choices.length)
        + StateBytes.doubles(selectorForecasts.length)
        + StateBytes.doubles(selectorErrors.length)
        + StateBytes.ints(totalChoices.length)
        + StateBytes.doubles(totalForecasts.length)
        + StateBytes.doubles(totalErrors.length);
  }
}
