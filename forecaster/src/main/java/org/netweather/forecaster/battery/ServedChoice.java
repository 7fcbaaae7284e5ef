package org.netweather.forecaster.battery;

import java.util.Arrays;

/**
 * The top of a battery: per criterion, serves whichever candidate (the faithful NWS total, the
 * extended total, each combiner) has the lowest discounted cumulative error of that criterion, as
 * the NWS itself chooses among its predictors by cumulative error. Ties go to the earlier
 * candidate, so the faithful total wins until something has done strictly better.
 *
 * <p>Every candidate's forecast is scored on each measurement before it is chosen for the next, so
 * the choice never sees the value it is scored on. Per criterion the candidates are {@code [c][k]}
 * in flat arrays; cost O(candidates) per step, no allocation.
 */
final class ServedChoice {
  /**
   * Each step's weight in a candidate's record decays by this factor per step (a memory of about 1
   * 000 steps). With whole-history totals, a candidate that was worse for the first few thousand
   * steps stays unchosen long after it has become the better one; on the DEV traces (docs) this
   * discount took the served error from 0.669 to 0.666 of last value's, and 0.998 began to switch
   * on noise (one trace 1.3 % worse than the faithful battery).
   */
  static final double KEEP = 0.999;

  private final int candidates;
  private final double[] forecasts; // [criterion][candidate]
  private final double[] errors; // [criterion][candidate], discounted error of that criterion
  private final int[] chosen = new int[2]; // [criterion]
  private final double[] served = {Double.NaN, Double.NaN}; // [criterion]
  private final double[] servedErrors = new double[4]; // [metric][criterion]

  ServedChoice(int candidates) {
    this.candidates = candidates;
    this.forecasts = new double[2 * candidates];
    this.errors = new double[2 * candidates];
    Arrays.fill(forecasts, Double.NaN);
  }

  /** Sets candidate k's standing forecast for criterion c (before {@link #choose}). */
  void offer(int c, int k, double forecast) {
    forecasts[c * candidates + k] = forecast;
  }

  /** Scores every candidate and the served forecasts on a new measurement. */
  void score(double actual, double cap) {
    for (int c = 0; c < 2; c++) {
      int at = c * candidates;
      for (int k = 0; k < candidates; k++) {
        double e = ErrorLedger.bounded(Math.abs(actual - forecasts[at + k]), cap);
        errors[at + k] = KEEP * errors[at + k] + (c == ErrorLedger.SQUARED ? e * e : e);
      }
      double e = ErrorLedger.bounded(Math.abs(actual - served[c]), cap);
      servedErrors[c] += e * e;
      servedErrors[2 + c] += e;
    }
  }

  /** Chooses, per criterion, the candidate to serve for the next step. */
  void choose() {
    for (int c = 0; c < 2; c++) {
      int at = c * candidates;
      int best = 0;
      for (int k = 1; k < candidates; k++) {
        if (errors[at + k] < errors[at + best]) {
          best = k;
        }
      }
      chosen[c] = best;
      served[c] = forecasts[at + best];
    }
  }

  /** The candidate served for criterion c. */
  int chosen(int c) {
    return chosen[c];
  }

  /** The served forecast of criterion c. */
  double forecast(int c) {
    return served[c];
  }

  /** Cumulative error of {@code metric} of the served forecast of criterion c. */
  double error(int metric, int c) {
    return servedErrors[metric * 2 + c];
  }

  /** Discounted cumulative error of criterion c of candidate k. */
  double candidateError(int c, int k) {
    return errors[c * candidates + k];
  }

  long stateBytes() {
    return StateBytes.object(4 + 4 * 5)
        + 2 * StateBytes.doubles(2 * candidates)
        + StateBytes.ints(2)
        + StateBytes.doubles(2)
        + StateBytes.doubles(4);
  }
}
