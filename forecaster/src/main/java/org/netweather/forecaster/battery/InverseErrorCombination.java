package org.netweather.forecaster.battery;

import java.util.Arrays;
import java.util.Locale;

/**
 * A few member-level combiners: each weights every member by the inverse of its recent error and
 * forecasts the weighted median of the members' forecasts.
 *
 * <p>Combiner k keeps, per member, a discounted mean absolute error d_i <- λ_k d_i + (1 - λ_k)|e_i|
 * and weights member i by w_i = (min_j d_j / d_i)^{p_k}: inverse-error weights after Bates and
 * Granger [1], with the error raised to a high power p so that a member clearly worse than the best
 * counts for little, and a discount so that weights follow a change of regime (Stock and Watson [2]
 * found discounted inverse-MSE weights among the most reliable combinations). The weighted median,
 * rather than the weighted mean, keeps one member's wild forecast from moving the combination at
 * all while it holds less than half the weight: it is the minimiser of weighted absolute error, the
 * measure the NWS reports besides MSE.
 *
 * <p>Why combine when the NWS selects: when two members are close, selection bets everything on
 * whichever was lucky lately and switches back and forth; a weighted median of the close ones sits
 * between them. The battery serves a combiner only where its own cumulative error beats the NWS
 * hierarchies' ({@link ServedChoice}), so a series where selection is better keeps selection.
 *
 * <p>Members beyond the first {@code eligible} (the extended members during their burn-in) take no
 * part. Cost per step: O(members x discounts) for the errors, an insertion sort of the members'
 * forecasts starting from the previous step's order (nearly sorted: members move little relative to
 * each other), and O(members x p) multiplications per combiner; no allocation.
 *
 * <ol>
 *   <li>J. M. Bates, C. W. J. Granger. "The Combination of Forecasts". Operational Research
 *       Quarterly 20(4):451-468, 1969.
 *   <li>J. H. Stock, M. W. Watson. "Combination Forecasts of Output Growth in a Seven-Country Data
 *       Set". Journal of Forecasting 23(6):405-430, 2004.
 * </ol>
 */
final class InverseErrorCombination {
  /** Discount λ of each combiner. */
  static final double[] DISCOUNTS = {0.999, 0.99};

  /** Power p of each combiner (an integer: the weight is a product, not a call to pow). */
  static final int[] POWERS = {8, 8};

  private final int members;
  private final double[] errors; // [combiner][member], discounted absolute errors
  private final double[] forecasts; // [combiner]
  private final int[] order; // member indices by forecast, kept from step to step
  private final double[] weights; // scratch, [member]
  private int sorted; // how many members `order` holds

  InverseErrorCombination(int members) {
    this.members = members;
    this.errors = new double[DISCOUNTS.length * members];
    this.forecasts = new double[DISCOUNTS.length];
    this.order = new int[members];
    this.weights = new double[members];
    Arrays.fill(forecasts, Double.NaN);
  }

  /** Number of combiners. */
  static int count() {
    return DISCOUNTS.length;
  }

  /** Name of combiner k, e.g. "inverse-error-0.999^8". */
  static String name(int k) {
    return String.format(Locale.ROOT, "inverse-error-%s^%d", DISCOUNTS[k], POWERS[k]);
  }

  /** Takes the members' standing forecasts' errors on a new measurement, each at most cap. */
  void score(double[] memberForecasts, double actual, double cap) {
    int n = members;
    double[] d = errors;
    for (int k = 0; k < DISCOUNTS.length; k++) {
      double keep = DISCOUNTS[k];
      double take = 1 - keep;
      int at = k * n;
      for (int i = 0; i < n; i++) {
        double e = ErrorLedger.bounded(Math.abs(actual - memberForecasts[i]), cap);
        d[at + i] = keep * d[at + i] + take * e;
      }
    }
  }

  /** Combines the first {@code eligible} members' forecasts of the next measurement. */
  void combine(double[] memberForecasts, int eligible) {
    int[] o = order;
    if (sorted != eligible) {
      for (int i = 0; i < eligible; i++) {
        o[i] = i;
      }
      sorted = eligible;
    }
    // Insertion sort from the previous order: a handful of moves per step.
    for (int i = 1; i < eligible; i++) {
      int m = o[i];
      double f = memberForecasts[m];
      int j = i - 1;
      while (j >= 0 && memberForecasts[o[j]] > f) {
        o[j + 1] = o[j];
        j--;
      }
      o[j + 1] = m;
    }
    for (int k = 0; k < DISCOUNTS.length; k++) {
      forecasts[k] = weightedMedian(memberForecasts, eligible, k * members, POWERS[k]);
    }
  }

  private double weightedMedian(double[] memberForecasts, int eligible, int at, int power) {
    double[] d = errors;
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < eligible; i++) {
      best = Math.min(best, d[at + i]);
    }
    double[] w = weights;
    double total = 0;
    for (int i = 0; i < eligible; i++) {
      double e = d[at + i];
      // Equal errors (both zero at the start) weigh 1; a member with no error outweighs the rest.
      double r = e <= best ? 1 : best / e;
      double p = 1;
      for (int b = 0; b < power; b++) {
        p *= r;
      }
      w[i] = p;
      total += p;
    }
    double half = 0.5 * total;
    double acc = 0;
    int[] o = order;
    for (int i = 0; i < eligible; i++) {
      acc += w[o[i]];
      if (acc >= half) {
        return memberForecasts[o[i]];
      }
    }
    return memberForecasts[o[eligible - 1]];
  }

  /** Combiner k's forecast of the next measurement (NaN before the first). */
  double forecast(int k) {
    return forecasts[k];
  }

  /** Combiner k's weight on member i now, normalised to sum to 1 over the eligible members. */
  double weight(int k, int i, int eligible) {
    int at = k * members;
    double best = Double.POSITIVE_INFINITY;
    for (int j = 0; j < eligible; j++) {
      best = Math.min(best, errors[at + j]);
    }
    double total = 0;
    double mine = 0;
    for (int j = 0; j < eligible; j++) {
      double e = errors[at + j];
      double r = e <= best ? 1 : best / e;
      double p = Math.pow(r, POWERS[k]);
      total += p;
      if (j == i) {
        mine = p;
      }
    }
    return i < eligible ? mine / total : 0;
  }

  long stateBytes() {
    return StateBytes.object(4 + 4 * 4 + 4)
        + StateBytes.doubles(errors.length)
        + StateBytes.doubles(forecasts.length)
        + StateBytes.ints(order.length)
        + StateBytes.doubles(weights.length);
  }
}
