package org.netweather.scheduler.frame;

/**
 * A forecast value with its error: what a scheduler may rely on and how far to trust it.
 *
 * @param value the forecast, in the model's units; NaN when unknown
 * @param error the forecaster's mean absolute error in the same units; 0 when not reported
 * @param stale true when the measurements behind the forecast are too old to count as current
 */
public record Estimate(double value, double error, boolean stale) {
  /** No forecast at all. */
  public static final Estimate UNKNOWN = new Estimate(Double.NaN, Double.NaN, false);

  /** A fresh value with no reported error (parameters, synthetic inputs). */
  public static Estimate of(double value) {
    return new Estimate(value, 0, false);
  }

  /** A fresh value with its mean absolute error. */
  public static Estimate of(double value, double error) {
    return new Estimate(value, error, false);
  }

  /** Whether there is a value a scheduler may take as current. */
  public boolean usable() {
    return !Double.isNaN(value) && !stale;
  }
}
