package org.netweather.forecaster.battery;

import java.util.Arrays;

/**
 * The NWS two-level choice over a battery's members, kept twice: the faithful hierarchy over the
 * faithful members ([0, split) of the members' {@link ErrorLedger}) and, if the battery has more,
 * the extended hierarchy over all of them; and the served choice between the two.
 *
 * <p>From forc.c as described in docs/forecasting.md (Wolski, Spring, Hayes 1999, "mixture of
 * experts" in the SIGMETRICS PER 2003 abstract). Selector j follows the member with the lowest
 * error under rule j: squared (rules 0-7) or absolute (8-15) error, over the whole history (rules 0
 * and 8) or the last 1, 5, 10, 20, 30, 50 or 100 steps; a window of one follows whoever was best on
 * the last step. "Total MSE" and "Total MAE" each follow the selector with the lowest cumulative
 * error of its kind. The extended hierarchy applies the same rules over all members, its
 * whole-history rules counting from the members' baseline (the end of the burn-in); the served
 * forecast, per criterion, is the total of whichever hierarchy has the lower cumulative error of
 * that criterion (ties: the faithful one). {@link Battery} explains why.
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
  private final boolean[] servedExtended = new boolean[2]; // [criterion]
  private final double[] served = new double[2 + 4]; // forecast [criterion], error [metric][c]

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
    served[0] = served[1] = Double.NaN;
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
    for (int c = 0; c < 2; c++) {
      double e = ErrorLedger.bounded(Math.abs(actual - served[c]), cap);
      served[2 + c] += e * e;
      served[4 + c] += e;
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
      served[0] = totalForecasts[0];
      served[1] = totalForecasts[1];
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
    for (int c = 0; c < 2; c++) {
      boolean extended = totalErrors[4 + c * 2 + c] < totalErrors[c * 2 + c];
      servedExtended[c] = extended;
      served[c] = totalForecasts[(extended ? 2 : 0) + c];
    }
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

  /** Cumulative error of {@code metric} of the faithful total of {@code criterion}. */
  double faithfulError(int metric, int criterion) {
    return totalErrors[metric * 2 + criterion];
  }

  /** The member the faithful total of {@code criterion} follows now. */
  int faithfulMember(int criterion) {
    return choices[totalChoices[criterion]];
  }

  /** The served forecast of {@code criterion}. */
  double servedForecast(int criterion) {
    return served[criterion];
  }

  /** Cumulative error of {@code metric} of the served forecast of {@code criterion}. */
  double servedError(int metric, int criterion) {
    return served[2 + metric * 2 + criterion];
  }

  /** The member the served forecast of {@code criterion} follows now. */
  int servedMember(int criterion) {
    int h = servedExtended[criterion] ? 1 : 0;
    return choices[h * RULES + totalChoices[h * 2 + criterion]];
  }

  long stateBytes() {
    return StateBytes.object(4 + 4 + 8 * 4)
        + StateBytes.ints(choices.length)
        + StateBytes.doubles(selectorForecasts.length)
        + StateBytes.doubles(selectorErrors.length)
        + StateBytes.ints(totalChoices.length)
        + StateBytes.doubles(totalForecasts.length)
        + StateBytes.doubles(totalErrors.length)
        + StateBytes.booleans(servedExtended.length)
        + StateBytes.doubles(served.length);
  }
}
