package org.netweather.forecaster.battery;

/**
 * A set of selectors over a range of forecasters: each selector follows the forecaster with the
 * lowest error under its rule (squared or absolute error, over the whole history or a window).
 *
 * <p>The NWS "derived forecasters" (forc.c; Wolski, Spring, Hayes 1999; forecasting.md §0):
 * minimum MSE and minimum MAE over the whole history and over the last 1, 5, 10, 20, 30, 50 and
 * 100 steps; a window of 1 follows whoever was best on the last step. The same class serves the
 * second level ("Total MSE", "Total MAE"), which selects among selectors. Choices are made after
 * each measurement and used for the next forecast, so a selector is always scored on a choice
 * made before it saw the measurement.
 *
 * <p>The minimum of every rule is found by the source {@link ErrorLedger} while it updates the
 * sums ({@link ErrorLedger#leader}), so choosing costs O(rules) per step, not O(rules x
 * forecasters).
 */
final class SelectorLayer {
  /** Window index meaning "the whole history". */
  static final int WHOLE_HISTORY = -1;

  private final ErrorLedger source;
  private final int[] metrics;
  private final int[] windows;
  private final int[] choices;

  /**
   * @param metrics per rule, {@link ErrorLedger#SQUARED} or {@link ErrorLedger#ABSOLUTE}
   * @param windows per rule, an index into the source ledger's windows or {@link #WHOLE_HISTORY}
   */
  SelectorLayer(ErrorLedger source, int[] metrics, int[] windows) {
    if (metrics.length != windows.length) {
      throw new IllegalArgumentException("one metric and one window per rule");
    }
    this.source = source;
    this.metrics = metrics.clone();
    this.windows = windows.clone();
    this.choices = new int[metrics.length];
  }

  int size() {
    return choices.length;
  }

  /** The forecaster rule {@code j} follows now. */
  int choice(int j) {
    return choices[j];
  }

  /** Re-chooses every rule among the source's first range, [0, split). */
  void choose() {
    for (int j = 0; j < choices.length; j++) {
      choices[j] = source.leader(metrics[j], windows[j], 0);
    }
  }

  /**
   * Re-chooses among all of the source's forecasters, reusing the choices {@code narrower} (the
   * same rules over the same ledger) has just made among [0, split): for a window rule the best
   * of the whole range is the better of that choice and the leader of [split, count), ties to
   * the former, which is exactly what a full scan would find. With {@code sinceBaseline},
   * whole-history rules count errors since {@link ErrorLedger#markBaseline} over everything.
   * Without {@code widen}, copies the narrower choices.
   */
  void chooseWidening(SelectorLayer narrower, boolean widen, boolean sinceBaseline) {
    for (int j = 0; j < choices.length; j++) {
      int best = narrower.choices[j];
      if (widen) {
        int metric = metrics[j];
        int window = windows[j];
        if (window == WHOLE_HISTORY && sinceBaseline) {
          best = source.leaderSinceBaseline(metric);
        } else {
          int other = source.leader(metric, window, 1);
          if (source.sum(metric, window, other) < source.sum(metric, window, best)) {
            best = other;
          }
        }
      }
      choices[j] = best;
    }
  }

  /** Writes each rule's forecast: the forecast of the forecaster it follows. */
  void forecasts(double[] sourceForecasts, double[] out) {
    for (int j = 0; j < choices.length; j++) {
      out[j] = sourceForecasts[choices[j]];
    }
  }

  long stateBytes() {
    return StateBytes.object(4 * 4) + 3 * StateBytes.ints(choices.length);
  }
}
