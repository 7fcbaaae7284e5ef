package org.netweather.scheduler.tree;

/**
 * The interference rate of one kind of transfer from concurrent measurements: IR is minus the
 * slope of the least-squares line through (transfer MB/s, compute rate normalised by its
 * maximum).
 *
 * <p>Kreaseck et al., §2: the normalised compute rate falls roughly linearly with the
 * transfer rate, and a quadratic fit gains little, so the line it is. The intercept is kept
 * rather than assumed to be 1: the paper's own Campus fits have intercepts up to 1.0296
 * (docs/schedulers/interference-trees.md, errata), and forcing the line through 1 would bias the
 * slope.
 *
 * @param intercept c₀ of {@code y = c₀ − IR·x}
 * @param rate IR, fraction of the maximum compute rate lost per MB/s
 * @param maxError largest |residual| over the samples
 * @param stdDev standard deviation of the residuals
 */
public record InterferenceFit(double intercept, double rate, double maxError, double stdDev) {

  /**
   * Fits raw samples: {@code computeRates[i]} observed while transferring at
   * {@code transferRates[i]} MB/s. The compute rates are normalised by their maximum first.
   */
  public static InterferenceFit fit(double[] transferRates, double[] computeRates) {
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
    return fitNormalised(transferRates, y);
  }

  /** Fits samples whose compute rates are already normalised. */
  public static InterferenceFit fitNormalised(double[] x, double[] y) {
    int n = x.length;
    if (n != y.length || n < 2) {
      throw new IllegalArgumentException("need at least two (transfer, compute) samples");
    }
    double mx = 0;
    double my = 0;
    for (int i = 0; i < n; i++) {
      mx += x[i];
      my += y[i];
    }
    mx /= n;
    my /= n;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < n; i++) {
      sxx += (x[i] - mx) * (x[i] - mx);
      sxy += (x[i] - mx) * (y[i] - my);
    }
    if (sxx == 0) {
      throw new IllegalArgumentException("every sample has the same transfer rate: no slope");
    }
    double slope = sxy / sxx;
    double intercept = my - slope * mx;
    double maxError = 0;
    double ss = 0;
    for (int i = 0; i < n; i++) {
      double r = y[i] - (intercept + slope * x[i]);
      maxError = Math.max(maxError, Math.abs(r));
      ss += r * r;
    }
    return new InterferenceFit(intercept, -slope, maxError, Math.sqrt(ss / n));
  }

  /** The normalised compute rate the line predicts at {@code transferRate} MB/s. */
  public double predict(double transferRate) {
    return intercept - rate * transferRate;
  }
}
