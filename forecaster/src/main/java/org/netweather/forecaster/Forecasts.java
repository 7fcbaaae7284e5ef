package org.netweather.forecaster;

import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.Interval;
import org.netweather.api.v1.Measurement;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.ForecastResult;
import org.netweather.forecaster.battery.PhysicalRange;

/**
 * Converts the battery's results to the wire's {@link Forecast}.
 *
 * <p>For a known resource the value and the interval are kept within the resource's range ({@link
 * PhysicalRange}): a trend or AR member can extrapolate CPU availability past 1 or an interval of a
 * latency below 0, and the nearest valid value is never farther than that from any valid
 * measurement, so the errors reported stay true bounds.
 */
final class Forecasts {
  static final double MIN_COVERAGE = 0.50;
  static final double MAX_COVERAGE = 0.99;

  private Forecasts() {}

  static org.netweather.forecaster.battery.Criterion criterion(Criterion c) {
    return c == Criterion.CRITERION_MAE
        ? org.netweather.forecaster.battery.Criterion.MAE
        : org.netweather.forecaster.battery.Criterion.MSE;
  }

  static Forecast toProto(String series, ForecastResult raw, long lastTs, double lastValue) {
    ForecastResult r = PhysicalRange.ofName(series).clip(raw);
    Forecast.Builder b =
        Forecast.newBuilder()
            .setSeries(series)
            .setValue(r.value())
            .setMse(r.mse())
            .setMae(r.mae())
            .setMethod(r.method() == null ? "" : r.method())
            .setCount(r.count())
            .setCriterion(
                r.criterion() == org.netweather.forecaster.battery.Criterion.MAE
                    ? Criterion.CRITERION_MAE
                    : Criterion.CRITERION_MSE)
            .setLast(Measurement.newBuilder().setTimestampMs(lastTs).setValue(lastValue));
    if (Double.isFinite(r.lower()) && Double.isFinite(r.upper())) {
      b.setInterval(
          Interval.newBuilder()
              .setLower(r.lower())
              .setUpper(r.upper())
              .setConfidence(r.coverage()));
    }
    return b.build();
  }

  /**
   * The coverage a request asks for: 0 (unset) means {@code configured}, the forecaster's {@code
   * coverage} setting ({@link Battery#DEFAULT_COVERAGE} unless changed).
   *
   * @throws IllegalArgumentException naming the field if it is outside [0.50, 0.99]
   */
  static double coverage(double requested, double configured) {
    if (requested == 0) {
      return configured;
    }
    if (!(requested >= MIN_COVERAGE && requested <= MAX_COVERAGE)) {
      throw new IllegalArgumentException(
          "coverage must be a fraction in [0.50, 0.99] (0 for the forecaster's setting, "
              + configured
              + "): "
              + requested);
    }
    return requested;
  }

  /** Like {@link #coverage(double, double)} with the default setting. */
  static double coverage(double requested) {
    return coverage(requested, Battery.DEFAULT_COVERAGE);
  }

  static Forecast toProto(SeriesForecasts.Snapshot s, Criterion c) {
    return toProto(s.series(), s.by(criterion(c)), s.lastTimestampMs(), s.lastValue());
  }
}
