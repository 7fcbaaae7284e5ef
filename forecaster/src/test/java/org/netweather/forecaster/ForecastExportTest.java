package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.model.SeriesPattern;

/** Forecasts scraped as Prometheus text: labels from the series name, bounded in number. */
class ForecastExportTest {
  private final SeriesForecasts forecasts = new SeriesForecasts(BatteryLayout.standard());
  private final PrometheusRegistry registry = new PrometheusRegistry();

  private void feed(String series, double value, long lastMs) {
    long[] t = new long[20];
    double[] v = new double[20];
    for (int i = 0; i < 20; i++) {
      t[i] = lastMs - (19 - i) * 10_000L;
      v[i] = value;
    }
    forecasts.observe(series, t, v, 20);
  }

  private String scrape() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, registry.scrape());
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void everySeries_isAForecastWithItsErrorAndAge_labelledByResourceAndHosts() throws Exception {
    feed("cpu.availability:alpha", 0.75, 100_000);
    feed("tcp.bandwidth:alpha->beta", 940, 90_000);
    try (ForecastExport export =
        new ForecastExport(
            "forecaster", forecasts, SeriesPattern.parse("*"), 100, () -> 130_000, registry)) {
      String text = scrape();
      assertTrue(
          text.contains(
              "netweather_forecast{daemon=\"forecaster\",host=\"alpha\","
                  + "resource=\"cpu.availability\"} 0.75"),
          text);
      assertTrue(
          text.contains(
              "netweather_forecast{daemon=\"forecaster\",dst=\"beta\","
                  + "resource=\"tcp.bandwidth\",src=\"alpha\"} 940.0"),
          text);
      assertTrue(
          text.contains(
              "netweather_forecast_measurement_age_seconds{daemon=\"forecaster\",dst=\"beta\","
                  + "resource=\"tcp.bandwidth\",src=\"alpha\"} 40.0"),
          text);
      assertTrue(text.contains("netweather_forecast_mae{"), text);
      assertTrue(text.contains("netweather_forecast_series_exported{daemon=\"forecaster\"} 2.0"));
      assertTrue(forecasts.delete("cpu.availability:alpha"));
      assertFalse(scrape().contains("host=\"alpha\""), "a deleted series is gone");
    }
    assertFalse(scrape().contains("netweather_forecast{"), "closed: nothing exported");
  }

  @Test
  void patternAndMaximum_boundWhatIsExported() throws Exception {
    for (int i = 0; i < 30; i++) {
      feed("cpu.availability:h" + (100 + i), 0.5, 100_000);
      feed("memory.free:h" + (100 + i), 1000, 100_000);
    }
    try (ForecastExport export =
        new ForecastExport(
            "fc",
            forecasts,
            SeriesPattern.parse("cpu.availability:*"),
            10,
            () -> 100_000,
            registry)) {
      String text = scrape();
      assertEquals(10, text.lines().filter(l -> l.startsWith("netweather_forecast{")).count());
      assertFalse(text.contains("memory.free"), "only the pattern's series");
      assertTrue(text.contains("netweather_forecast_series_not_exported{daemon=\"fc\"} 20.0"));
    }
  }
}
