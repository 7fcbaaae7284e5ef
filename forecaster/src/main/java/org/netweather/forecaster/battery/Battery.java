package org.netweather.forecaster.battery;

/**
 * The forecasting state of one series: every member predictor, their error records, the NWS
 * selectors over them, and the forecast served from all of that.
 *
 * <p>Per measurement ({@link #observe}), in this order:
 *
 * <ol>
 *   <li>every member's standing forecast, every selector's and every top-level choice's is scored
 *       against the measurement, which none of them has seen yet;
 *   <li>every member observes the measurement and forecasts the next one;
 *   <li>every selector re-chooses for the next step from the errors so far.
 * </ol>
 *
 * <p>Three levels, after the NWS mixture of experts (Wolski, Spring, Hayes 1999; nws-original.md
 * §1.9; forecasting.md §0):
 *
 * <pre>
 *   members (18 faithful + extended)          ErrorLedger, windows 1..100
 *     faithful selectors: 16 over the 18      min MSE / min MAE, whole history or window w
 *       faithful totals: "Total MSE", "Total MAE"   lowest cumulative error among the 16
 *     extended selectors: 16 over all members (extended ones only after burn-in)
 *       served: lowest windowed error among the extended selectors and the faithful total
 * </pre>
 *
 * <p>No allocation per measurement; state is flat arrays sized at construction
 * ({@link #stateBytes()}). Not thread-safe: feed one series from one thread at a time.
 */
public final class Battery {
  private static final int RULES = 16;

  private final BatteryLayout layout;
  private final Predictor[] members;
  private final int faithfulCount;
  private final double[] memberForecasts;
  private final ErrorLedger memberErrors;
  private final double[] baseline; // member totals when extended members became eligible

  private final SelectorLayer faithfulSelectors;
  private final double[] faithfulSelectorForecasts = new double[RULES];
  private final ErrorLedger faithfulSelectorErrors = new ErrorLedger(RULES, new int[0]);
  private final SelectorLayer faithfulTotals;
  private final double[] faithfulTotalForecasts = new double[2];
  private final ErrorLedger faithfulTotalErrors = new ErrorLedger(2, new int[0]);

  private final SelectorLayer extendedSelectors;
  private final double[] candidateForecasts; // extended selectors, then the faithful totals
  private final ErrorLedger candidateErrors;
  private final int[] picked;
  private final double[] pickedForecasts;
  private final int[] servedChoice = new int[2];
  private final ErrorLedger extendedSelectorErrors = new ErrorLedger(RULES, new int[0]);
  private final double[] extendedTotalForecasts = new double[2];
  private final SelectorLayer extendedTotals =
      new SelectorLayer(
          extendedSelectorErrors,
          new int[] {ErrorLedger.SQUARED, ErrorLedger.ABSOLUTE},
          new int[] {SelectorLayer.WHOLE_HISTORY, SelectorLayer.WHOLE_HISTORY},
          0);
  private final SelectorLayer served;
  private final double[] servedForecasts = new double[2];
  private final ErrorLedger servedErrors = new ErrorLedger(2, new int[0]);

  private final double[] oracle = new double[4]; // faithful sq, abs; all sq, abs
  private long count;

  Battery(BatteryLayout layout, Predictor[] members) {
    this.layout = layout;
    this.members = members;
    this.faithfulCount = layout.faithfulCount();
    int m = members.length;
    this.memberForecasts = new double[m];
    this.memberErrors = new ErrorLedger(m, BatteryLayout.NWS_WINDOWS);
    this.baseline = new double[2 * m];
    int[] metrics = new int[RULES];
    int[] windows = new int[RULES];
    for (int j = 0; j < RULES; j++) {
      metrics[j] = j < RULES / 2 ? ErrorLedger.SQUARED : ErrorLedger.ABSOLUTE;
      int w = j % (RULES / 2);
      windows[j] = w == 0 ? SelectorLayer.WHOLE_HISTORY : w - 1;
    }
    this.faithfulSelectors = new SelectorLayer(memberErrors, metrics, windows, 0);
    this.faithfulTotals =
        new SelectorLayer(
            faithfulSelectorErrors,
            new int[] {ErrorLedger.SQUARED, ErrorLedger.ABSOLUTE},
            new int[] {SelectorLayer.WHOLE_HISTORY, SelectorLayer.WHOLE_HISTORY},
            0);
    this.extendedSelectors = new SelectorLayer(memberErrors, metrics, windows, 0);
    this.candidateForecasts = new double[RULES + 4];
    this.picked = layout.servedCandidates;
    this.pickedForecasts = new double[picked.length];
    this.candidateErrors = new ErrorLedger(picked.length, layout.servedWindows);
    int rule = layout.servedRule;
    this.served =
        new SelectorLayer(
            candidateErrors,
            new int[] {ErrorLedger.SQUARED, ErrorLedger.ABSOLUTE},
            new int[] {rule, rule},
            0);
    java.util.Arrays.fill(memberForecasts, Double.NaN);
  }

  /** Feeds the next measurement; {@code value} must be finite. */
  public void observe(double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("measurement must be finite: " + value);
    }
    if (count > 0) {
      score(value);
    }
    for (int i = 0; i < members.length; i++) {
      members[i].observe(value);
      memberForecasts[i] = members[i].predict();
    }
    count++;
    choose();
  }

  /** The served forecast: the battery's best choice under {@code criterion}. */
  public ForecastResult forecast(Criterion criterion) {
    int c = criterion.metric();
    int candidate = picked[servedChoice[c]];
    return result(servedForecasts[c], servedErrors, c, methodOfCandidate(candidate), criterion);
  }

  /** What the original NWS battery alone would serve: its "Total MSE" or "Total MAE". */
  public ForecastResult faithfulForecast(Criterion criterion) {
    int c = criterion.metric();
    String method = members[faithfulSelectors.choice(faithfulTotals.choice(c))].name();
    return result(faithfulTotalForecasts[c], faithfulTotalErrors, c, method, criterion);
  }

  /** Measurements seen. */
  public long count() {
    return count;
  }

  public BatteryLayout layout() {
    return layout;
  }

  public int memberCount() {
    return members.length;
  }

  public String memberName(int i) {
    return members[i].name();
  }

  /** Member {@code i}'s forecast of the next measurement. */
  public double memberForecast(int i) {
    return memberForecasts[i];
  }

  /** Number of selectors of each family (faithful, extended): 16. */
  public int selectorCount() {
    return RULES;
  }

  /** Name of selector rule {@code j}: "min-mse", "min-mse-w1", ..., "min-mae-w100". */
  public static String selectorName(int j) {
    String metric = j < RULES / 2 ? "min-mse" : "min-mae";
    int w = j % (RULES / 2);
    return w == 0 ? metric : metric + "-w" + BatteryLayout.NWS_WINDOWS[w - 1];
  }

  /** Forecast of faithful selector {@code j} (over the 18 NWS primaries). */
  public double faithfulSelectorForecast(int j) {
    return faithfulSelectorForecasts[j];
  }

  /** Forecast of extended selector {@code j} (over all members past burn-in). */
  public double extendedSelectorForecast(int j) {
    return candidateForecasts[j];
  }

  /**
   * Mean error of the per-step oracle ("Optimum" in NWS): the best member on every step, known
   * only afterwards, so a lower bound for any selection. Over the faithful members or all.
   */
  public double oracle(Criterion criterion, boolean faithfulOnly) {
    long scored = memberErrors.steps();
    int k = (faithfulOnly ? 0 : 2) + criterion.metric();
    return scored == 0 ? Double.NaN : oracle[k] / scored;
  }

  /** Estimated heap bytes of this battery, members and bookkeeping included. */
  public long stateBytes() {
    long bytes = StateBytes.object(4 * 20 + 8) + StateBytes.references(members.length);
    for (Predictor p : members) {
      bytes += p.stateBytes();
    }
    bytes += StateBytes.doubles(memberForecasts.length) + StateBytes.doubles(baseline.length);
    bytes += memberErrors.stateBytes() + faithfulSelectorErrors.stateBytes();
    bytes += faithfulTotalErrors.stateBytes() + candidateErrors.stateBytes();
    bytes += servedErrors.stateBytes();
    bytes += faithfulSelectors.stateBytes() + faithfulTotals.stateBytes();
    bytes += extendedSelectors.stateBytes() + served.stateBytes();
    bytes += StateBytes.doubles(RULES) + StateBytes.doubles(candidateForecasts.length);
    bytes += 3 * StateBytes.doubles(2) + StateBytes.doubles(oracle.length);
    return bytes;
  }

  private void score(double value) {
    memberErrors.record(memberForecasts, value);
    double bestFaithful = Double.POSITIVE_INFINITY;
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < members.length; i++) {
      double e = Math.abs(value - memberForecasts[i]);
      if (i < faithfulCount) {
        bestFaithful = Math.min(bestFaithful, e);
      }
      best = Math.min(best, e);
    }
    oracle[0] += bestFaithful * bestFaithful;
    oracle[1] += bestFaithful;
    oracle[2] += best * best;
    oracle[3] += best;
    faithfulSelectorErrors.record(faithfulSelectorForecasts, value);
    faithfulTotalErrors.record(faithfulTotalForecasts, value);
    candidateErrors.record(pickedForecasts, value);
    extendedSelectorErrors.record(candidateForecasts, value);
    servedErrors.record(servedForecasts, value);
  }

  private void choose() {
    faithfulSelectors.choose(faithfulCount, null);
    faithfulSelectors.forecasts(memberForecasts, faithfulSelectorForecasts);
    faithfulTotals.choose(RULES, null);
    faithfulTotals.forecasts(faithfulSelectorForecasts, faithfulTotalForecasts);

    boolean eligible = count > layout.burnIn();
    if (count == layout.burnIn() + 1) {
      memberErrors.copyTotals(baseline);
    }
    extendedSelectors.choose(
        eligible ? members.length : faithfulCount, eligible ? baseline : null);
    extendedSelectors.forecasts(memberForecasts, candidateForecasts);
    candidateForecasts[RULES] = faithfulTotalForecasts[0];
    candidateForecasts[RULES + 1] = faithfulTotalForecasts[1];
    extendedTotals.choose(RULES, null);
    extendedTotals.forecasts(candidateForecasts, extendedTotalForecasts);
    candidateForecasts[RULES + 2] = extendedTotalForecasts[0];
    candidateForecasts[RULES + 3] = extendedTotalForecasts[1];
    for (int k = 0; k < picked.length; k++) {
      pickedForecasts[k] = candidateForecasts[picked[k]];
    }
    served.choose(picked.length, null);
    for (int c = 0; c < 2; c++) {
      int best = 0;
      double bestErr = Double.POSITIVE_INFINITY;
      for (int k = 0; k < picked.length; k++) {
        double e =
            candidateErrors.total(c, k)
                * (picked[k] == RULES || picked[k] == RULES + 1 ? 1 - layout.servedMargin : 1);
        if (e < bestErr) {
          bestErr = e;
          best = k;
        }
      }
      servedChoice[c] = best;
      servedForecasts[c] = pickedForecasts[best];
    }
  }

  private String methodOfCandidate(int candidate) {
    int member =
        candidate < RULES
            ? extendedSelectors.choice(candidate)
            : candidate < RULES + 2
                ? faithfulSelectors.choice(faithfulTotals.choice(candidate - RULES))
                : extendedSelectors.choice(extendedTotals.choice(candidate - RULES - 2));
    return members[member].name();
  }

  private ForecastResult result(
      double value, ErrorLedger errors, int c, String method, Criterion criterion) {
    long scored = errors.steps();
    double mse = scored == 0 ? Double.NaN : errors.total(ErrorLedger.SQUARED, c) / scored;
    double mae = scored == 0 ? Double.NaN : errors.total(ErrorLedger.ABSOLUTE, c) / scored;
    return ForecastResult.of(
        count == 0 ? Double.NaN : value, mse, mae, count == 0 ? "none" : method, count, criterion);
  }
}
