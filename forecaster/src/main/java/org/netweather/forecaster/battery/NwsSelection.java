package org.netweather.forecaster.battery;

/**
 * The two-level NWS choice over a set of member predictors: 16 derived selectors, then "Total
 * MSE" and "Total MAE" choosing among the selectors.
 *
 * <p>From forc.c as described in nws-original.md §1.9 and forecasting.md §0 (Wolski, Spring,
 * Hayes 1999, "mixture of experts" in the SIGMETRICS PER 2003 abstract). Selector j follows the
 * member with the lowest error under rule j: squared (rules 0-7) or absolute (8-15) error, over
 * the whole history (rules 0 and 8) or the last 1, 5, 10, 20, 30, 50 or 100 steps. Each total
 * follows the selector with the lowest cumulative error of its kind and reports that value.
 *
 * <p>Everything chosen here is chosen after a measurement and scored on the next one, so no
 * level ever sees the value it is scored on. Cost per step: O(16), the minima having been found
 * by the error ledgers as they were updated; no allocation.
 */
final class NwsSelection {
  /** Number of derived selectors. */
  static final int RULES = 16;

  private final SelectorLayer selectors;
  private final double[] selectorForecasts = new double[RULES];
  private final ErrorLedger selectorErrors = new ErrorLedger(RULES, new int[0]);
  private final SelectorLayer totals;
  private final double[] totalForecasts = new double[2];
  private final ErrorLedger totalErrors = new ErrorLedger(2, new int[0]);

  NwsSelection(ErrorLedger memberErrors) {
    int[] metrics = new int[RULES];
    int[] windows = new int[RULES];
    for (int j = 0; j < RULES; j++) {
      metrics[j] = j < RULES / 2 ? ErrorLedger.SQUARED : ErrorLedger.ABSOLUTE;
      int w = j % (RULES / 2);
      windows[j] = w == 0 ? SelectorLayer.WHOLE_HISTORY : w - 1;
    }
    this.selectors = new SelectorLayer(memberErrors, metrics, windows);
    this.totals =
        new SelectorLayer(
            selectorErrors,
            new int[] {ErrorLedger.SQUARED, ErrorLedger.ABSOLUTE},
            new int[] {SelectorLayer.WHOLE_HISTORY, SelectorLayer.WHOLE_HISTORY});
  }

  /** Name of rule j: "min-mse", "min-mse-w1", ..., "min-mae-w100". */
  static String ruleName(int j) {
    String metric = j < RULES / 2 ? "min-mse" : "min-mae";
    int w = j % (RULES / 2);
    return w == 0 ? metric : metric + "-w" + BatteryLayout.NWS_WINDOWS[w - 1];
  }

  /** Scores the standing selector and total forecasts against the new measurement. */
  void score(double actual) {
    selectorErrors.record(selectorForecasts, actual);
    totalErrors.record(totalForecasts, actual);
  }

  /** Re-chooses for the next step among the members of the ledger's first range. */
  void choose(double[] memberForecasts) {
    selectors.choose();
    finishChoice(memberForecasts);
  }

  /**
   * Re-chooses for the next step among all members of the ledger if {@code eligible}, reusing
   * the choices {@code narrower} has just made over the first range, whole-history rules
   * counting from the ledger's baseline (see {@link SelectorLayer#chooseWidening}); otherwise
   * takes the narrower choices.
   */
  void chooseWidening(double[] memberForecasts, NwsSelection narrower, boolean eligible) {
    selectors.chooseWidening(narrower.selectors, eligible, eligible);
    finishChoice(memberForecasts);
  }

  private void finishChoice(double[] memberForecasts) {
    selectors.forecasts(memberForecasts, selectorForecasts);
    totals.choose();
    totals.forecasts(selectorForecasts, totalForecasts);
  }

  double selectorForecast(int j) {
    return selectorForecasts[j];
  }

  /** Forecast of Total MSE (metric 0) or Total MAE (metric 1). */
  double totalForecast(int metric) {
    return totalForecasts[metric];
  }

  /** The member whose forecast the total of {@code metric} serves. */
  int totalMember(int metric) {
    return selectors.choice(totals.choice(metric));
  }

  /** Errors of the two totals: forecaster 0 is Total MSE, 1 is Total MAE. */
  ErrorLedger totalErrors() {
    return totalErrors;
  }

  long stateBytes() {
    return StateBytes.object(6 * 4)
        + selectors.stateBytes()
        + totals.stateBytes()
        + StateBytes.doubles(RULES)
        + StateBytes.doubles(2)
        + selectorErrors.stateBytes()
        + totalErrors.stateBytes();
  }
}
