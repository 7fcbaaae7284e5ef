package org.netweather.model.interference;

import org.netweather.model.stats.LeastSquares;
import org.netweather.model.stats.LinearFit;

/**
 * The interference rate of one kind of transfer, fitted to concurrent measurements of transfer rate
 * and compute rate.
 *
 * <pre>
 * B. Kreaseck, L. Carter, H. Casanova, J. Ferrante, S. Nandy, "Interference-Aware Scheduling",
 * International Journal of High Performance Computing Applications 20(1), 2006, §2.2
 * (docs/measurement.md, "Interference rates"):
 *
 *   1. average compute and transfer rates over regular intervals (the caller's samples);
 *   2. normalise each compute rate by the maximum compute rate achieved;
 *   3. fit y = c0 - IR * x by linear least squares, x = transfer rate in MB/s, y = normalised
 *      compute rate;
 *   4. IR = -slope; its standard error is the slope's.
 * </pre>
 *
 * A line it is: the paper found a quadratic fit gained little (§2.3). The intercept is kept rather
 * than assumed to be 1: the paper's own Campus fits have intercepts up to 1.0296
 * (docs/schedulers/interference-trees.md), and forcing the line through 1 would bias the slope.
 *
 * @param intercept c0 of {@code y = c0 - IR * x}
 * @param rate IR, fraction of the maximum compute rate lost per MB/s
 * @param rateStdError standard error of {@code rate}; NaN with two samples
 * @param points number of samples fitted
 * @param rSquared how much of the compute rate's variation the line explains; NaN when all compute
 *     rates are equal
 * @param maxError largest |residual| over the samples
 * @param rmsError root mean square of the residuals
 */
public record InterferenceFit(
    double intercept,
    double rate,
    double rateStdError,
    long points,
    double rSquared,
    double maxError,
    double rmsError) {

  /**
   * Fits raw samples: {@code computeRates[i]} observed while transferring at {@code
   * transferMBps[i]} MB/s. The compute rates are normalised by their maximum first.
   *
   * @throws IllegalArgumentException with no positive compute rate, fewer than two samples, or
   *     fewer than two distinct transfer rates
   */
  public static InterferenceFit fit(double[] transferMBps, double[] computeRates) {
    double max = 0;
    for (double c : computeRates) {
      max = Math.max(max, c);
    }
    if (!(max > 0)) {
      throw new IllegalArgumentException("no positive compute rate among the samples");
    }
    double[] y = new double[computeRates.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = computeRates[i] / max;
    }
    return fitNormalised(transferMBps, y);
  }

  /** Fits samples whose compute rates are already normalised. */
  public static InterferenceFit fitNormalised(double[] x, double[] y) {
    int n = x.length;
    if (n != y.length || n < 2) {
      throw new IllegalArgumentException("need at least two (transfer, compute) samples");
    }
    LinearFit line;
    try {
      line = LeastSquares.fit(x, y, 0, n);
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException("samples need at least two distinct transfer rates", e);
    }
    double maxError = 0;
    double ss = 0;
    for (int i = 0; i < n; i++) {
      double r = y[i] - line.predict(x[i]);
      maxError = Math.max(maxError, Math.abs(r));
      ss += r * r;
    }
    return new InterferenceFit(
        line.intercept(),
        -line.slope(),
        line.slopeStdError(),
        n,
        line.rSquared(),
        maxError,
        Math.sqrt(ss / n));
  }

  /** The normalised compute rate the line predicts at {@code transferMBps}. */
  public double predict(double transferMBps) {
    return intercept - rate * transferMBps;
  }
}
