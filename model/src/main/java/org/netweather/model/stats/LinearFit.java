package org.netweather.model.stats;

/**
 * The line {@code y = intercept + slope * x} fitted to {@code n} points, with the uncertainty of
 * both coefficients.
 *
 * @param n number of points
 * @param slope fitted slope
 * @param intercept fitted intercept
 * @param slopeStdError standard error of the slope; NaN when {@code n < 3}
 * @param interceptStdError standard error of the intercept; NaN when {@code n < 3}
 * @param residualStdDev standard deviation of the residuals, {@code sqrt(SSE / (n - 2))}
 * @param rSquared coefficient of determination; NaN when all y are equal
 */
public record LinearFit(
    long n,
    double slope,
    double intercept,
    double slopeStdError,
    double interceptStdError,
    double residualStdDev,
    double rSquared) {

  /** The fitted value at {@code x}. */
  public double predict(double x) {
    return intercept + slope * x;
  }
}
