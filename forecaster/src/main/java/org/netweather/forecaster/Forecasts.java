package org.netweather.forecaster;

import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.Interval;
import org.netweather.api.v1.Measurement;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.ForecastResult;
import org.netweather.model.Resource;

/**
 * Converts the battery's results to the wire's {@link Forecast}.
 *
 * <p>For a known resource the value and the interval are kept within the resource's range: a trend
 * or AR member can extrapolate CPU availability past 1 or an interval of a latency below 0, and the
 * nearest valid value is never farther than that from any valid measurement, so the errors reported
 * stay true bounds.
 */
final class Forecasts {
  private Forecasts() {}

  static org.netweather.forecaster.battery.Criterion criterion(Criterion c) {
    return c == Criterion.CRITERION_MAE
        ? org.netweather.forecaster.battery.Criterion.MAE
        : org.netweather.forecaster.battery.Criterion.MSE;
  }

  static Forecast toProto(String series, ForecastResult r, long lastTs, double lastValue) {
    int colon = series.indexOf(':'); // names were checked when stored; only the resource matters
    Resource range = colon < 0 ? null : Resource.of(series.substring(0, colon)).orElse(null);
    Forecast.Builder b =
        Forecast.newBuilder()
            .setSeries(series)
            .setValue(clamp(range, r.value()))
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
              .setLower(clamp(range, r.lower()))
              .setUpper(clamp(range, r.upper()))
              .setConfidence(r.coverage()));
    }
    return b.build();
  }

  /**
   * The coverage a request asks for: 0 (unset) means {@link Battery#DEFAULT_COVERAGE}.
   *
   * @throws IllegalArgumentException naming the field if it is outside [0.50, 0.99]
   */
  static double coverage(double requested) {
    if (requested == 0) {
      return Battery.DEFAULT_COVERAGE;
    }
    if (!(requested >= 0.5 && requested <= 0.99)) {
      throw new IllegalArgumentException(
          "coverage must be a fraction in [0.50, 0.99] (0 for 0.90): " + requested);
    }
    return requested;
  }

  private static double clamp(Resource range, double v) {
    return range == null ? v : range.clamp(v);
  }

  static Forecast toProto(SeriesForecasts.Snapshot s, Criterion c) {
    return toProto(s.series(), s.by(criterion(c)), s.lastTimestampMs(), s.lastValue());
  }
}
