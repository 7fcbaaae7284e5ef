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
 * made before it saw the measurement. Cost O(rules x forecasters) per step.
 */
final class SelectorLayer {
  /** Window index meaning "the whole history". */
  static final int WHOLE_HISTORY = -1;

  private final ErrorLedger source;
  private final int[] metrics;
  private final int[] windows;
  private final int from;
  private final int[] choices;

  /**
   * @param metrics per rule, {@link ErrorLedger#SQUARED} or {@link ErrorLedger#ABSOLUTE}
   * @param windows per rule, an index into the source ledger's windows or {@link #WHOLE_HISTORY}
   */
  SelectorLayer(ErrorLedger source, int[] metrics, int[] windows, int from) {
    if (metrics.length != windows.length) {
      throw new IllegalArgumentException("one metric and one window per rule");
    }
    this.source = source;
    this.metrics = metrics.clone();
    this.windows = windows.clone();
    this.from = from;
    this.choices = new int[metrics.length];
    java.util.Arrays.fill(choices, from);
  }

  int size() {
    return choices.length;
  }

  /** The forecaster rule {@code j} follows now. */
  int choice(int j) {
    return choices[j];
  }

  /**
   * Re-chooses every rule among forecasters [from, to); whole-history rules count errors since
   * {@code baseline} (see {@link ErrorLedger#argminTotal}).
   */
  void choose(int to, double[] baseline) {
    for (int j = 0; j < choices.length; j++) {
      choices[j] =
          windows[j] == WHOLE_HISTORY
              ? source.argminTotal(metrics[j], from, to, baseline)
              : source.argminWindow(metrics[j], windows[j], from, to);
    }
  }

  /**
   * Re-chooses like {@link #choose} among [from, to), reusing the choices {@code narrower} (the
   * same rules over the same ledger) has just made among [from, narrowTo): for a window rule
   * the best of the wider range is the better of that choice and the best of [narrowTo, to),
   * ties to the former, which is exactly what a full scan would find. Whole-history rules
   * counted from a baseline differ from the narrower ones and are scanned in full.
   */
  void chooseWidening(SelectorLayer narrower, int narrowTo, int to, double[] baseline) {
    for (int j = 0; j < choices.length; j++) {
      int metric = metrics[j];
      int window = windows[j];
      if (window == WHOLE_HISTORY && baseline != null) {
        choices[j] = source.argminTotal(metric, from, to, baseline);
        continue;
      }
      int best = narrower.choices[j];
      if (to > narrowTo) {
        int other =
            window == WHOLE_HISTORY
                ? source.argminTotal(metric, narrowTo, to, null)
                : source.argminWindow(metric, window, narrowTo, to);
        if (source.sum(metric, window, other) < source.sum(metric, window, best)) {
          best = other;
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
    return StateBytes.object(4 * 4 + 4) + 3 * StateBytes.ints(choices.length);
  }
}
