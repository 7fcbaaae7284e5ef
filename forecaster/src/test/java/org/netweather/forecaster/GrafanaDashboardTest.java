package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard in docs/grafana queries only metrics the forecaster exports, with the
 * labels it gives them, so it cannot drift from {@link ForecastExport}.
 */
class GrafanaDashboardTest {
  private static final Set<String> EXPORTED =
      Set.of(
          "netweather_forecast",
          "netweather_forecast_mae",
          "netweather_forecast_measurement_age_seconds");
  private static final Set<String> LABELS = Set.of("resource", "host", "src", "dst", "daemon");

  @Test
  void everyQuery_namesExportedMetricsAndLabels() throws Exception {
    JsonNode dash =
        new ObjectMapper().readTree(Path.of("../docs/grafana/netweather-forecasts.json").toFile());
    Set<String> metrics = new TreeSet<>();
    Set<String> labels = new TreeSet<>();
    Pattern metric = Pattern.compile("\\b(netweather_[a-z_]+)");
    Pattern label = Pattern.compile("([a-z_]+)\\s*(=~|!=|=)\\s*\"");
    int queries = 0;
    for (String expr : dash.findValuesAsText("expr")) {
      queries++;
      Matcher m = metric.matcher(expr);
      while (m.find()) {
        metrics.add(m.group(1));
      }
      Matcher l = label.matcher(expr);
      while (l.find()) {
        labels.add(l.group(1));
      }
    }
    for (JsonNode q : dash.findValues("query")) {
      String text = q.isTextual() ? q.asText() : q.path("query").asText();
      Matcher m = metric.matcher(text);
      while (m.find()) {
        metrics.add(m.group(1));
      }
    }
    assertTrue(queries >= 6, "panels query forecasts");
    assertTrue(EXPORTED.containsAll(metrics), "unknown metrics: " + metrics);
    assertTrue(LABELS.containsAll(labels), "unknown labels: " + labels);
    assertEquals("netweather-forecasts", dash.get("uid").asText());
  }
}
