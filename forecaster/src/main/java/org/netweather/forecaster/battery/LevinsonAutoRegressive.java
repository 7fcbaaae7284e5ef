package org.netweather.forecaster.battery;

import java.util.Arrays;

/**
 * Forecasts with an AR(p) model fitted to exponentially weighted autocovariances by the
 * Levinson-Durbin recursion, refitted every few measurements.
 *
 * <p>Dinda and O'Hallaron ("Host load prediction using linear models", Cluster Computing 3(4),
 * 2000) found AR(16) the best cost/benefit model for host load and fitted it by Yule-Walker. Here
 * the autocovariances are kept online ({@link Autocovariances}, shared by every AR member of a
 * battery) and the Yule-Walker equations are solved by Levinson-Durbin (Levinson 1947; Durbin 1960;
 * Box, Jenkins, Reinsel, "Time Series Analysis", 4th ed., §3.2.2, App. A3.2):
 *
 * <pre>
 *   e = c0 (1 + ridge);  for m = 1..p:
 *     k = (c[m] - sum_{j<m} a[j] c[m-j]) / e;   a[j] -= k a[m-j] (j < m);  a[m] = k;  e *= 1 - k^2
 *   forecast = mean + sum_j a[j] (x[t+1-j] - mean)
 * </pre>
 *
 * <p>Why not recursive least squares, as this member once was: RLS costs O(p^2) every step (about
 * 600 multiply-adds for AR(16)) and holds a (p+1)^2 matrix; this costs O(p) per step plus an O(p^2)
 * solve every {@value #REFIT_EVERY} steps, and holds p coefficients. The data forget at the same
 * rate either way, so the fit moves little between solves.
 *
 * <p>Safeguards: until 2p measurements the forecast is the last value; the small ridge on c0 and
 * stopping the recursion at the first reflection coefficient with |k| >= 1 keep the model stable
 * when the weighted estimates are not quite positive definite (a constant series gives a = 0,
 * forecast = mean); the forecast is clamped to the range of the lags widened by that range on each
 * side.
 */
final class LevinsonAutoRegressive implements Predictor {
  /** Measurements between solves of the Yule-Walker equations. */
  static final int REFIT_EVERY = 8;

  private static final double RIDGE = 1e-6;

  private final Autocovariances statistics;
  private final boolean ownsStatistics;
  private final int order;
  private final int warmup;
  private final String name;
  private final double[] coefficients; // coefficients[j - 1] = a[j]
  private long seen;
  private double forecast = Double.NaN;

  LevinsonAutoRegressive(Autocovariances statistics, boolean ownsStatistics, int order) {
    if (order < 1 || order > statistics.maxLag()) {
      throw new IllegalArgumentException(
          "order must be in [1, " + statistics.maxLag() + "]: " + order);
    }
    this.statistics = statistics;
    this.ownsStatistics = ownsStatistics;
    this.order = order;
    this.warmup = Math.max(2 * statistics.maxLag(), 16);
    this.coefficients = new double[order];
    String suffix =
        statistics.forgetting() == AutoRegressive.DEFAULT_FORGETTING
            ? ""
            : "-" + statistics.forgetting();
    this.name = "ar" + order + "-ld" + suffix;
  }

  @Override
  public void observe(double value) {
    statistics.offer(seen++, value);
    if (seen < warmup) {
      forecast = value;
      return;
    }
    if (seen % REFIT_EVERY == 0 || seen == warmup) {
      solve();
    }
    forecast = clampedForecast(value);
  }

  @Override
  public double update(double value) {
    observe(value); // this class is final: both calls inline here
    return predict();
  }

  @Override
  public double predict() {
    return forecast;
  }

  /** Coefficient a[j], j in [1, order], of the last solve; for tests. */
  double coefficient(int j) {
    return coefficients[j - 1];
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long stateBytes() {
    return StateBytes.object(4 + 1 + 4 + 4 + 4 + 4 + 8 + 8)
        + StateBytes.doubles(order)
        + (ownsStatistics ? statistics.stateBytes() : 0);
  }

  /** Levinson-Durbin in place on {@link #coefficients}. */
  private void solve() {
    Autocovariances s = statistics;
    double[] a = coefficients;
    Arrays.fill(a, 0);
    double error = s.covariance(0) * (1 + RIDGE);
    if (!(error > 0) || !Double.isFinite(error)) {
      return; // a constant series (or broken sums): forecast the mean
    }
    for (int m = 1; m <= order; m++) {
      double acc = s.covariance(m);
      for (int j = 1; j < m; j++) {
        acc -= a[j - 1] * s.covariance(m - j);
      }
      double k = acc / error;
      if (!(Math.abs(k) < 1)) {
        break; // keep the stable fit of order m - 1
      }
      for (int j = 1, i = m - 1; j <= i; j++, i--) {
        double aj = a[j - 1];
        double ai = a[i - 1];
        a[j - 1] = aj - k * ai;
        if (i != j) {
          a[i - 1] = ai - k * aj;
        }
      }
      a[m - 1] = k;
      error *= 1 - k * k;
    }
  }

  private double clampedForecast(double last) {
    Autocovariances s = statistics;
    double mean = s.mean();
    double z = mean;
    double[] a = coefficients;
    double[] history = s.history();
    int start = s.historyStart();
    for (int j = 0; j < order; j++) {
      z += a[j] * (history[start + j] - mean);
    }
    if (!Double.isFinite(z)) {
      return last;
    }
    // Range of the lags in two independent chains: each Math.min is a few dependent
    // instructions, and one chain through 16 of them would be most of this method's time.
    double lo0 = last;
    double hi0 = last;
    double lo1 = last;
    double hi1 = last;
    int j = 0;
    for (; j + 1 < order; j += 2) {
      double x0 = history[start + j];
      double x1 = history[start + j + 1];
      lo0 = Math.min(lo0, x0);
      hi0 = Math.max(hi0, x0);
      lo1 = Math.min(lo1, x1);
      hi1 = Math.max(hi1, x1);
    }
    if (j < order) {
      lo0 = Math.min(lo0, history[start + j]);
      hi0 = Math.max(hi0, history[start + j]);
    }
    double lo = Math.min(lo0, lo1);
    double hi = Math.max(hi0, hi1);
    double range = hi - lo;
    return Math.max(lo - range, Math.min(hi + range, z));
  }
}
