package org.netweather.forecaster.battery;

/**
 * A forecast of a series' next measurement, with the error record of whatever produced it.
 *
 * <p>{@code mse} and {@code mae} are the realized mean squared and absolute one-step errors of the
 * forecaster that chose this value (the battery's top level for {@code criterion}), over {@code
 * count - 1} scored steps; both are NaN until a second measurement has been scored. {@code method}
 * names the predictor whose forecast was chosen, as NWS's {@code methodUsed} did. The interval is
 * {@code value +/- 1.96 sigma}, a nominal 95% interval under normal errors, with sigma = sqrt(mse)
 * for {@link Criterion#MSE} and sigma = sqrt(pi/2) * mae (the normal relation between MAE and
 * standard deviation) for {@link Criterion#MAE}.
 *
 * @param value the forecast, NaN before any measurement
 * @param mse realized mean squared error of the chooser
 * @param mae realized mean absolute error of the chooser
 * @param method name of the predictor that made the value
 * @param count measurements seen
 * @param lower lower end of the interval
 * @param upper upper end of the interval
 * @param criterion the error measure the choice was made by
 */
public record ForecastResult(
    double value,
    double mse,
    double mae,
    String method,
    long count,
    double lower,
    double upper,
    Criterion criterion) {

  /** z for a two-sided 95% normal interval. */
  public static final double Z95 = 1.959963984540054;

  /** Builds a result and derives its interval from the error matching {@code criterion}. */
  public static ForecastResult of(
      double value, double mse, double mae, String method, long count, Criterion criterion) {
    double sigma = criterion == Criterion.MSE ? Math.sqrt(mse) : Math.sqrt(Math.PI / 2) * mae;
    double half = Z95 * sigma;
    return new ForecastResult(
        value, mse, mae, method, count, value - half, value + half, criterion);
  }
}
