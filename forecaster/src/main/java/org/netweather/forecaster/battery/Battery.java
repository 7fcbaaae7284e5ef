package org.netweather.forecaster.battery;

import java.util.Arrays;

/**
 * The forecasting state of one series: every member predictor, their error records, the NWS
 * selection over them, and the forecast served from all of that.
 *
 * <pre>{@code
 * Battery battery = BatteryLayout.standard().newBattery();
 * for (double x : measurements) {
 *   battery.observe(x);
 * }
 * ForecastResult next = battery.forecast(Criterion.MAE);
 * }</pre>
 *
 * <p>Per measurement ({@link #observe}), in this order:
 *
 * <ol>
 *   <li>every standing forecast (members, selectors, totals, served) is scored against the
 *       measurement, which none of them has seen;
 *   <li>every member observes it and forecasts the next one;
 *   <li>every selector chooses for the next step from the errors so far.
 * </ol>
 *
 * <p>Selection, after the NWS mixture of experts (docs/forecasting.md):
 *
 * <pre>
 *   members: 18 faithful + extended        one ErrorLedger, windows 1..100
 *   faithful NwsSelection over the 18      16 selectors -> Total MSE, Total MAE  = NWS itself
 *   extended NwsSelection over all         the same, extended members only after burn-in,
 *                                          whole-history rules counting from the burn-in
 *   combiners over the members             inverse-error weighted medians (InverseErrorCombination),
 *                                          extended members only after burn-in
 *   served, per criterion                  whichever of faithful total, extended total and
 *                                          combiners has the lowest discounted cumulative error
 *                                          (ServedChoice; ties: the faithful one)
 * </pre>
 *
 * <p>A battery of faithful members only has no extended hierarchy and no combiners: it serves the
 * NWS Total itself.
 *
 * <p>Why the last level chooses among whole hierarchies (and combiners), not one more selector over
 * everything: on series where the new members do not help, each extended selector is its faithful
 * twin plus the noise of occasionally following a new member, and a top level that switches among
 * 18 near-equal candidates adds its own switching noise. Choosing between just two long-run records
 * keeps the faithful result wherever the extension does not pay, and takes the extension where it
 * does (docs/forecasting.md warns that unguarded selection with an unstable member can lose 50%).
 * The burn-in guards the same thing from below.
 *
 * <p>No allocation per measurement; state is flat arrays sized at construction ({@link
 * #stateBytes()}). Not thread-safe: feed one series from one thread at a time.
 */
public final class Battery {
  private final BatteryLayout layout;
  private final Predictor[] members;
  private final int faithfulCount;
  private final double[] memberForecasts;
  private final ErrorLedger memberErrors;
  private final NwsSelection selection;
  private final InverseErrorCombination combination; // null in a faithful-only battery
  private final ServedChoice served;
  private final double[] oracle = new double[4]; // faithful: squared, absolute; all: same
  private long count;
  private final MeanHistory history = new MeanHistory();

  /**
   * Past {@link #SCALE_WARMUP} measurements, an error counts as at most this many typical changes
   * of the series: one absurd measurement (1e308 among values near 100) then costs every member
   * alike a bounded amount, so the totals keep telling members apart, instead of one term a billion
   * times larger than the rest erasing their differences for good.
   */
  static final double ERROR_SPAN = 1e6;

  /** How many typical changes from the last measurement make an isolated spike. */
  static final double SPIKE_SPAN = 1_000;

  static final int SCALE_WARMUP = 30;
  private int spikeSide; // +1 or -1 while the previous measurement was left out, else 0

  /** Each criterion's served forecast's intervals, calibrated on the series' own errors. */
  private final ConformalInterval[] intervals = {new ConformalInterval(), new ConformalInterval()};

  /** Coverage of the interval {@link #forecast(Criterion)} gives. */
  public static final double DEFAULT_COVERAGE = 0.90;

  private long spikes;
  private static final double SCALE_WEIGHT = 0.02;
  private double previous = Double.NaN; // the last measurement
  private double scale; // running mean absolute change between measurements (bounded too)

  Battery(BatteryLayout layout, Predictor[] members) {
    this.layout = layout;
    this.members = members;
    this.faithfulCount = layout.faithfulCount();
    this.memberForecasts = new double[members.length];
    this.memberErrors = new ErrorLedger(members.length, BatteryLayout.NWS_WINDOWS, faithfulCount);
    this.selection = new NwsSelection(memberErrors);
    this.combination = selection.extended() ? new InverseErrorCombination(members.length) : null;
    this.served =
        new ServedChoice(
            selection.extended() ? COMBINED + InverseErrorCombination.count() : FAITHFUL + 1);
    Arrays.fill(memberForecasts, Double.NaN);
  }

  /** Feeds the next measurement. */
  public void observe(double measured) {
    if (!Double.isFinite(measured)) {
      throw new IllegalArgumentException("measurement must be finite: " + measured);
    }
    double value = despiked(measured);
    if (Double.isNaN(value)) {
      return; // an isolated spike: the members never see it, and it scores nobody
    }
    if (count > 0) {
      score(value);
    }
    Predictor[] m = members;
    double[] forecasts = memberForecasts;
    for (int i = 0; i < m.length; i++) {
      forecasts[i] = m[i].update(value);
    }
    count++;
    history.add(value);
    if (count == layout.burnIn() + 1) {
      memberErrors.markBaseline(); // the extended whole-history rules count from here
    }
    boolean eligible = count > layout.burnIn();
    selection.choose(forecasts, eligible);
    ServedChoice top = served;
    for (int c = 0; c < 2; c++) {
      top.offer(c, FAITHFUL, selection.faithfulForecast(c));
    }
    if (combination != null) {
      combination.combine(forecasts, eligible ? forecasts.length : faithfulCount);
      for (int c = 0; c < 2; c++) {
        top.offer(c, EXTENDED, selection.extendedForecast(c));
        for (int k = 0; k < InverseErrorCombination.count(); k++) {
          top.offer(c, COMBINED + k, combination.forecast(k));
        }
      }
    }
    top.choose();
    previous = value;
  }

  /**
   * The served forecast of the next measurement, chosen and reported by {@code criterion}, with its
   * interval at {@link #DEFAULT_COVERAGE}.
   */
  public ForecastResult forecast(Criterion criterion) {
    return forecast(criterion, DEFAULT_COVERAGE);
  }

  /**
   * The served forecast with an interval meant to hold the next measurement with probability {@code
   * coverage}, in [0.50, 0.99]: calibrated on the series' own recent errors once 20 are known
   * ({@link ConformalInterval}), the normal interval from the criterion's error before.
   */
  public ForecastResult forecast(Criterion criterion, double coverage) {
    if (!(coverage >= ConformalInterval.MIN_COVERAGE
        && coverage <= ConformalInterval.MAX_COVERAGE)) {
      throw new IllegalArgumentException("coverage must be in [0.50, 0.99]: " + coverage);
    }
    int c = criterion.metric();
    ForecastResult r =
        result(
            served.forecast(c),
            served.error(ErrorLedger.SQUARED, c),
            served.error(ErrorLedger.ABSOLUTE, c),
            servedMethod(c),
            criterion,
            coverage);
    double half = intervals[c].halfWidth(coverage);
    if (Double.isNaN(half) || !Double.isFinite(r.value())) {
      return r; // too few errors yet: the normal interval from the criterion's error
    }
    return r.withInterval(r.value() - half, r.value() + half);
  }

  /**
   * Longest horizon, in steps, {@link #horizon} forecasts from blocks; the history must hold at
   * least this many blocks of it ({@value #MIN_BLOCKS}).
   */
  public static int maxHorizonSteps() {
    return MeanHistory.CAPACITY / MIN_BLOCKS;
  }

  /** Fewest past blocks a horizon forecast is made from. */
  static final int MIN_BLOCKS = 8;

  /**
   * A battery over the series aggregated into means of {@code steps} consecutive measurements,
   * ending at the newest: its forecasts are of the mean of the next {@code steps} measurements, and
   * its intervals are calibrated on its own errors in that (see {@link MeanHistory}). Null if the
   * history does not yet hold {@value #MIN_BLOCKS} blocks. Its extended members join after a fifth
   * of the blocks, as there are fewer of them than a one-step burn-in.
   *
   * @throws IllegalArgumentException if {@code steps} is not in [1, {@link #maxHorizonSteps()}]
   */
  public Battery horizon(int steps) {
    if (steps < 1 || steps > maxHorizonSteps()) {
      throw new IllegalArgumentException(
          "horizon must be 1 to " + maxHorizonSteps() + " steps: " + steps);
    }
    int blocks = history.blocks(steps);
    if (blocks < MIN_BLOCKS) {
      return null;
    }
    return history.aggregate(layout.withBurnIn(Math.min(layout.burnIn(), blocks / 5)), steps);
  }

  /** What the original NWS battery alone serves: its "Total MSE" or "Total MAE". */
  public ForecastResult faithfulForecast(Criterion criterion) {
    int c = criterion.metric();
    return result(
        selection.faithfulForecast(c),
        selection.faithfulError(ErrorLedger.SQUARED, c),
        selection.faithfulError(ErrorLedger.ABSOLUTE, c),
        memberName(selection.faithfulMember(c)),
        criterion,
        0.95);
  }

  /** Candidates of the served choice: the faithful total, the extended total, the combiners. */
  private static final int FAITHFUL = 0;

  private static final int EXTENDED = 1;
  private static final int COMBINED = 2;

  /** What the served forecast of criterion c comes from: a member's name or a combiner's. */
  private String servedMethod(int c) {
    int k = served.chosen(c);
    if (k == FAITHFUL) {
      return memberName(selection.faithfulMember(c));
    }
    if (k == EXTENDED) {
      return memberName(selection.extendedMember(c));
    }
    return InverseErrorCombination.name(k - COMBINED);
  }

  /** Number of member-level combiners (none in a battery of faithful members only). */
  public int combinerCount() {
    return combination == null ? 0 : InverseErrorCombination.count();
  }

  /** Name of combiner k, e.g. "inverse-error-0.90^8". */
  public static String combinerName(int k) {
    return InverseErrorCombination.name(k);
  }

  /** Combiner k's forecast of the next measurement. */
  public double combinerForecast(int k) {
    return combination.forecast(k);
  }

  /** Combiner k's current weight on member i (the weights of the eligible members sum to 1). */
  public double combinerWeight(int k, int i) {
    return combination.weight(k, i, count > layout.burnIn() ? members.length : faithfulCount);
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
    return layout.members().get(i); // shared by every series, unlike a name held per predictor
  }

  /** Member {@code i}'s forecast of the next measurement. */
  public double memberForecast(int i) {
    return memberForecasts[i];
  }

  /** Number of derived selectors in each of the faithful and extended hierarchies: 16. */
  public static int selectorCount() {
    return NwsSelection.RULES;
  }

  /** Name of selector {@code j}: "min-mse", "min-mse-w1", ..., "min-mae-w100". */
  public static String selectorName(int j) {
    return NwsSelection.ruleName(j);
  }

  /** Forecast of NWS selector {@code j} over the faithful members. */
  public double faithfulSelectorForecast(int j) {
    return selection.faithfulSelectorForecast(j);
  }

  /** Forecast of selector {@code j} over all members (the faithful one if there are no others). */
  public double extendedSelectorForecast(int j) {
    return selection.extendedSelectorForecast(j);
  }

  /**
   * Mean error per scored step of the per-step oracle ("Optimum" in NWS): the member closest to
   * each measurement, known only afterwards, hence a lower bound for any selection. Over the
   * faithful members only, or over all.
   */
  public double oracle(Criterion criterion, boolean faithfulOnly) {
    long scored = memberErrors.steps();
    int k = (faithfulOnly ? 0 : 2) + criterion.metric();
    return scored == 0 ? Double.NaN : oracle[k] / scored;
  }

  /** Estimated heap bytes of this battery: members, error records and selection. */
  public long stateBytes() {
    long bytes = StateBytes.object(4 * 5 + 8) + StateBytes.references(members.length);
    for (Predictor p : members) {
      bytes += p.stateBytes();
    }
    bytes += StateBytes.doubles(memberForecasts.length) + memberErrors.stateBytes();
    bytes += selection.stateBytes() + StateBytes.doubles(oracle.length) + served.stateBytes();
    bytes += StateBytes.references(intervals.length) + history.stateBytes();
    for (ConformalInterval interval : intervals) {
      bytes += interval.stateBytes();
    }
    if (combination != null) {
      bytes += combination.stateBytes();
    }
    return bytes;
  }

  private void score(double value) {
    double[] forecasts = memberForecasts;
    double cap = errorCap();
    memberErrors.record(forecasts, value, cap);
    double bestFaithful = ErrorLedger.bounded(closest(forecasts, 0, faithfulCount, value), cap);
    double best =
        Math.min(
            bestFaithful,
            ErrorLedger.bounded(closest(forecasts, faithfulCount, forecasts.length, value), cap));
    oracle[0] += bestFaithful * bestFaithful;
    oracle[1] += bestFaithful;
    oracle[2] += best * best;
    oracle[3] += best;
    // The intervals learn from the served forecasts that stood when this value arrived.
    for (int c = 0; c < intervals.length; c++) {
      intervals[c].score(ErrorLedger.bounded(Math.abs(value - served.forecast(c)), cap));
    }
    selection.score(value, cap);
    if (combination != null) {
      combination.score(forecasts, value, cap);
    }
    served.score(value, cap);
    double change = ErrorLedger.bounded(Math.abs(value - previous), cap);
    scale = count <= 1 ? change : scale + SCALE_WEIGHT * (change - scale);
  }

  /**
   * What the members see of a measurement (NaN: nothing). Past the warm-up, one that lies more than
   * {@link #SPIKE_SPAN} typical changes from the last, when the one before did not, is an isolated
   * spike and is left out (a running mean or an autoregression would otherwise carry 1e308 for
   * good, and whole-history error totals would rank members by how they met it for thousands of
   * steps); a second one on the same side is a level shift and is taken as it is. Only the battery
   * leaves it out: the measurement is stored as it came.
   */
  private double despiked(double value) {
    if (count <= SCALE_WARMUP || !(scale > 0)) {
      return value;
    }
    double limit = SPIKE_SPAN * scale;
    double change = value - previous;
    if (Math.abs(change) <= limit) {
      spikeSide = 0;
      return value;
    }
    int side = change > 0 ? 1 : -1;
    if (spikeSide == side) {
      spikeSide = 0;
      return value;
    }
    spikeSide = side;
    spikes++;
    return Double.NaN;
  }

  /** Measurements left out as isolated spikes. */
  public long spikes() {
    return spikes;
  }

  /** The most one step's error may count: unbounded (but finite) until the scale is known. */
  private double errorCap() {
    return count > SCALE_WARMUP && scale > 0 ? ERROR_SPAN * scale : ErrorLedger.MAX_ERROR;
  }

  /**
   * Least |value - forecasts[i]| over [from, to), +infinity if empty. Two independent chains: each
   * Math.min is a few dependent instructions.
   */
  private static double closest(double[] forecasts, int from, int to, double value) {
    double even = Double.POSITIVE_INFINITY;
    double odd = Double.POSITIVE_INFINITY;
    int i = from;
    for (; i + 1 < to; i += 2) {
      even = Math.min(even, ErrorLedger.bounded(Math.abs(value - forecasts[i])));
      odd = Math.min(odd, ErrorLedger.bounded(Math.abs(value - forecasts[i + 1])));
    }
    if (i < to) {
      even = Math.min(even, ErrorLedger.bounded(Math.abs(value - forecasts[i])));
    }
    return Math.min(even, odd);
  }

  private ForecastResult result(
      double value,
      double squared,
      double absolute,
      String method,
      Criterion criterion,
      double coverage) {
    if (count == 0) {
      return ForecastResult.of(Double.NaN, Double.NaN, Double.NaN, "none", 0, criterion, coverage);
    }
    if (!Double.isFinite(value)) {
      value = previous; // a member gone non-finite never reaches a caller
    }
    long scored = count - 1; // every forecast is scored from the second measurement on
    double mse = scored == 0 ? Double.NaN : squared / scored;
    double mae = scored == 0 ? Double.NaN : absolute / scored;
    return ForecastResult.of(value, mse, mae, method, count, criterion, coverage);
  }
}
