package org.netweather.forecaster.battery.evaluation;

/**
 * Whether two forecasts' errors differ by more than noise: the Diebold-Mariano statistic of a
 * series of loss differences d_t (here |served error| - |last value's error|), the mean of d over
 * its standard error, with the variance estimated by Newey and West's Bartlett-weighted
 * autocovariances up to lag ⌊n^(1/3)⌋, since one-step errors of a battery are autocorrelated.
 * Asymptotically standard normal when the two are equally accurate: |z| below {@link #NOISE} (about
 * the two-sided 5 % level) means the trace cannot tell them apart.
 *
 * <p>F. X. Diebold, R. S. Mariano, "Comparing Predictive Accuracy", <i>Journal of Business &amp;
 * Economic Statistics</i> 13(3):253–263, 1995. W. K. Newey, K. D. West, "A Simple, Positive
 * Semi-Definite, Heteroskedasticity and Autocorrelation Consistent Covariance Matrix",
 * <i>Econometrica</i> 55(3):703–708, 1987.
 */
public final class DieboldMariano {
  /** |z| below this is within noise: 1.96 is the two-sided 5 % point of the normal. */
  public static final double NOISE = 1.96;

  private DieboldMariano() {}

  /**
   * The statistic of the first {@code n} loss differences: negative when the first forecast's
   * losses are smaller. 0 when they never differ, NaN when there are fewer than 2.
   */
  public static double statistic(double[] d, int n) {
    if (n < 2) {
      return Double.NaN;
    }
    double mean = 0;
    for (int i = 0; i < n; i++) {
      mean += d[i];
    }
    mean /= n;
    int lags = (int) Math.floor(Math.cbrt(n));
    double variance = 0;
    for (int k = 0; k <= lags && k < n; k++) {
      double acc = 0;
      for (int i = k; i < n; i++) {
        acc += (d[i] - mean) * (d[i - k] - mean);
      }
      double weight = k == 0 ? 1 : 2 * (1 - k / (lags + 1.0));
      variance += weight * acc / n;
    }
    if (!(variance > 0)) {
      return mean == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, mean);
    }
    return mean / Math.sqrt(variance / n);
  }
}
