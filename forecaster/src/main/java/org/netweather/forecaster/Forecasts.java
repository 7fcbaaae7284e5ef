package org.netweather.forecaster;

import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.Interval;
import org.netweather.api.v1.Measurement;
import org.netweather.forecaster.battery.ForecastResult;

/** Converts the battery's results to the wire's {@link Forecast}. */
final class Forecasts {
  private Forecasts() {}

  static org.netweather.forecaster.battery.Criterion criterion(Criterion c) {
    return c == Criterion.CRITERION_MAE ? org.netweather.forecaster.battery.Criterion.MAE
        : org.netweather.forecaster.battery.Criterion.MSE;
  }

  static Forecast toProto(String series, ForecastResult r, long lastTs, double lastValue) {
    Forecast.Builder b = Forecast.newBuilder()
        .setSeries(series)
        .setValue(r.value())
        .setMse(r.mse())
        .setMae(r.mae())
        .setMethod(r.method() == null ? "" : r.method())
        .setCount(r.count())
        .setCriterion(r.criterion() == org.netweather.forecaster.battery.Criterion.MAE
            ? Criterion.CRITERION_MAE : Criterion.CRITERION_MSE)
        .setLast(Measurement.newBuilder().setTimestampMs(lastTs).setValue(lastValue));
    if (Double.isFinite(r.lower()) && Double.isFinite(r.upper())) {
      b.setInterval(Interval.newBuilder().setLower(r.lower()).setUpper(r.upper())
          .setConfidence(0.95));
    }
    return b.build();
  }

  static Forecast toProto(SeriesForecasts.Snapshot s, Criterion c) {
    return toProto(s.series(), s.by(criterion(c)), s.lastTimestampMs(), s.lastValue());
  }
}
