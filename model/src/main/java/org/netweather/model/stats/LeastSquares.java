package org.netweather.model.stats;

/**
 * Accumulates points and fits the ordinary least-squares line through them.
 *
 * <pre>
 * Standard simple linear regression, kept in centred running sums so that large x (such as
 * nanosecond timestamps) lose no precision:
 *
 *   add(x, y):  n += 1;  dx = x - mean_x;  mean_x += dx / n;  mean_y += (y - mean_y) / n;
 *               Sxx += dx * (x - mean_x);  Sxy += dx * (y - mean_y);  Syy += dy * (y - mean_y)
 *
 *   slope = Sxy / Sxx            intercept = mean_y - slope * mean_x
 *   SSE   = Syy - slope * Sxy    s^2 = SSE / (n - 2)
 *   se(slope)     = sqrt(s^2 / Sxx)
 *   se(intercept) = sqrt(s^2 * (1/n + mean_x^2 / Sxx))
 *   r^2           = 1 - SSE / Syy
 * </pre>
 *
 * <p>Not thread-safe.
 */
public final class LeastSquares {

  private long n;
  private double meanX;
  private double meanY;
  private double sxx;
  private double sxy;
  private double syy;

  /** Adds one point; non-finite coordinates are rejected. */
  public LeastSquares add(double x, double y) {
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      throw new IllegalArgumentException("point must be finite: (" + x + ", " + y + ")");
    }
    n++;
    double dx = x - meanX;
    double dy = y - meanY;
    meanX += dx / n;
    meanY += dy / n;
    sxx += dx * (x - meanX);
    sxy += dx * (y - meanY);
    syy += dy * (y - meanY);
    return this;
  }

  /** Number of points added. */
  public long count() {
    return n;
  }

  /**
   * Fits the line.
   *
   * @throws IllegalStateException with fewer than two points or when every x is the same
   */
  public LinearFit fit() {
    if (n < 2 || !(sxx > 0)) {
      throw new IllegalStateException("need two points with distinct x, have " + n);
    }
    double slope = sxy / sxx;
    double intercept = meanY - slope * meanX;
    // Rounding can push a perfect fit's SSE a hair below zero.
    double sse = Math.max(0, syy - slope * sxy);
    double s2 = n > 2 ? sse / (n - 2) : Double.NaN;
    double seSlope = Math.sqrt(s2 / sxx);
    double seIntercept = Math.sqrt(s2 * (1.0 / n + meanX * meanX / sxx));
    double r2 = syy > 0 ? 1 - sse / syy : Double.NaN;
    return new LinearFit(n, slope, intercept, seSlope, seIntercept, Math.sqrt(s2), r2);
  }

  /** Fits {@code y[i]} against {@code x[i]} for i in [from, to). */
  public static LinearFit fit(double[] x, double[] y, int from, int to) {
    LeastSquares ls = new LeastSquares();
    for (int i = from; i < to; i++) {
      ls.add(x[i], y[i]);
    }
    return ls.fit();
  }
}
