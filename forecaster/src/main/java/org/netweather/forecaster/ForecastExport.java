package org.netweather.forecaster;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;
import java.util.function.LongSupplier;
import org.netweather.model.SeriesName;
import org.netweather.model.SeriesPattern;

/**
 * Each series' forecast as Prometheus metrics, built at scrape time from the batteries, so that
 * operators see forecasts where they already look (Grafana):
 *
 * <pre>
 *   netweather_forecast{daemon, resource, host | src, dst}                    the served forecast
 *   netweather_forecast_mae{daemon, resource, host | src, dst}                its mean absolute error
 *   netweather_forecast_measurement_age_seconds{daemon, resource, host | src, dst}
 *   netweather_forecast_series_exported{daemon}, _series_not_exported{daemon}
 * </pre>
 *
 * <p>Cardinality is bounded: only series that exist and match {@code pattern}, at most {@code max}
 * of them (the first by name); the rest are counted in {@code _series_not_exported}. A site with
 * hundreds of thousands of series exports the ones worth a dashboard (e.g. {@code
 * cpu.availability:*}).
 */
final class ForecastExport implements MultiCollector, AutoCloseable {
  private final String daemon;
  private final SeriesForecasts forecasts;
  private final SeriesPattern pattern;
  private final int max;
  private final LongSupplier clockMs;
  private final PrometheusRegistry registry;

  ForecastExport(
      String daemon,
      SeriesForecasts forecasts,
      SeriesPattern pattern,
      int max,
      LongSupplier clockMs,
      PrometheusRegistry registry) {
    this.daemon = daemon;
    this.forecasts = forecasts;
    this.pattern = pattern;
    this.max = max;
    this.clockMs = clockMs;
    this.registry = registry;
    registry.register(this);
  }

  @Override
  public MetricSnapshots collect() {
    List<SeriesForecasts.Snapshot> all = max == 0 ? List.of() : forecasts.matching(pattern);
    int exported = Math.min(all.size(), max);
    GaugeSnapshot.Builder value =
        GaugeSnapshot.builder()
            .name("netweather_forecast")
            .help("The served forecast of a series' next measurement, in the series' unit");
    GaugeSnapshot.Builder mae =
        GaugeSnapshot.builder()
            .name("netweather_forecast_mae")
            .help("Mean absolute error of the predictor serving the forecast, in the series' unit");
    GaugeSnapshot.Builder age =
        GaugeSnapshot.builder()
            .name("netweather_forecast_measurement_age_seconds")
            .help("Seconds since the series' last measurement");
    long now = clockMs.getAsLong();
    for (int i = 0; i < exported; i++) {
      SeriesForecasts.Snapshot s = all.get(i);
      Labels labels = labels(s.series());
      value.dataPoint(point(s.mse().value(), labels));
      mae.dataPoint(point(s.mae().mae(), labels));
      age.dataPoint(point(Math.max(0, now - s.lastTimestampMs()) / 1000.0, labels));
    }
    Labels daemonOnly = Labels.of("daemon", daemon);
    return MetricSnapshots.of(
        value.build(),
        mae.build(),
        age.build(),
        GaugeSnapshot.builder()
            .name("netweather_forecast_series_exported")
            .help("Series whose forecast is exported as metrics")
            .dataPoint(point(exported, daemonOnly))
            .build(),
        GaugeSnapshot.builder()
            .name("netweather_forecast_series_not_exported")
            .help("Series with forecasts left out of the metrics by metricsSeriesMax")
            .dataPoint(point(all.size() - exported, daemonOnly))
            .build());
  }

  private Labels labels(String series) {
    SeriesName n = SeriesName.parse(series);
    return n.isPair()
        ? Labels.of(
            "daemon", daemon, "resource", n.resource(), "src", n.source(), "dst", n.destination())
        : Labels.of("daemon", daemon, "resource", n.resource(), "host", n.source());
  }

  private static GaugeDataPointSnapshot point(double v, Labels labels) {
    return GaugeDataPointSnapshot.builder().value(v).labels(labels).build();
  }

  @Override
  public void close() {
    registry.unregister(this);
  }
}
