package org.netweather.forecaster.battery;

/**
 * A forecast of a series' next measurement, with the error record of whatever produced it.
 *
 * <p>{@code mse} and {@code mae} are the realized mean squared and absolute one-step errors of the
 * forecaster that chose this value (the battery's top level for {@code criterion}), over {@code
 * count - 1} scored steps; both are NaN until a second measurement has been scored. {@code method}
 * names the predictor (or combiner) whose forecast was chosen, as NWS's {@code methodUsed} did. The
 * interval built by {@link #of} is {@code value +/- z sigma}, z the normal quantile of {@code
 * coverage} (1.96 at 95 %), with sigma = sqrt(mse) for {@link Criterion#MSE} and sigma = sqrt(pi/2)
 * * mae (the normal relation between MAE and standard deviation) for {@link Criterion#MAE}; a
 * battery replaces it by its calibrated interval once it knows enough of its own errors ({@code
 * coverage} says at what level either was asked).
 *
 * @param value the forecast, NaN before any measurement
 * @param mse realized mean squared error of the chooser
 * @param mae realized mean absolute error of the chooser
 * @param method name of the predictor that made the value
 * @param count measurements seen
 * @param lower lower end of the interval
 * @param upper upper end of the interval
 * @param criterion the error measure the choice was made by
 * @param coverage the share of measurements the interval is meant to hold, e.g. 0.90
 */
public record ForecastResult(
    double value,
    double mse,
    double mae,
    String method,
    long count,
    double lower,
    double upper,
    Criterion criterion,
    double coverage) {

  /** z for a two-sided 95% normal interval. */
  public static final double Z95 = 1.959963984540054;

  /**
   * Builds a result with the normal 95 % interval derived from the error matching {@code
   * criterion}.
   */
  public static ForecastResult of(
      double value, double mse, double mae, String method, long count, Criterion criterion) {
    return of(value, mse, mae, method, count, criterion, 0.95);
  }

  /** Builds a result with the normal interval of the given coverage (in (0, 1)). */
  public static ForecastResult of(
      double value,
      double mse,
      double mae,
      String method,
      long count,
      Criterion criterion,
      double coverage) {
    double sigma = criterion == Criterion.MSE ? Math.sqrt(mse) : Math.sqrt(Math.PI / 2) * mae;
    double half = z(coverage) * sigma;
    return new ForecastResult(
        value, mse, mae, method, count, value - half, value + half, criterion, coverage);
  }

  /** This forecast with another interval. */
  public ForecastResult withInterval(double lower, double upper) {
    return new ForecastResult(value, mse, mae, method, count, lower, upper, criterion, coverage);
  }

  /**
   * z such that a normal variable lies within ±z standard deviations with probability {@code
   * coverage}: exact at 0.95, else the rational approximation 26.2.23 of M. Abramowitz and I. A.
   * Stegun, "Handbook of Mathematical Functions" (NBS 1964), absolute error below 4.5e-4, ample for
   * a fallback interval.
   */
  static double z(double coverage) {
    if (coverage == 0.95) {
      return Z95;
    }
    double p = (1 - coverage) / 2; // upper tail
    double t = Math.sqrt(-2 * Math.log(p));
    return t
        - (2.515517 + 0.802853 * t + 0.010328 * t * t)
            / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
  }
}
