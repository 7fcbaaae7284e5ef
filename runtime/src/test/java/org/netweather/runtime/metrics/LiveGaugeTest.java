package org.netweather.runtime.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.netweather.testing.MetricValues;

class LiveGaugeTest {
  @Test
  void readsEachRunningDaemon_sumsSharedLabels_forgetsClosedOnes() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    LiveGauge series = new LiveGauge(registry, "netweather_test_series", "Series");
    AtomicInteger first = new AtomicInteger(3);
    AutoCloseable a = series.add("memory", first::get);
    AutoCloseable b = series.add("memory", () -> 4);
    AutoCloseable c = series.add("forecaster", () -> 10);

    assertEquals(7, MetricValues.of(registry, "netweather_test_series", "daemon", "memory"));
    first.set(5);
    assertEquals(
        9,
        MetricValues.of(registry, "netweather_test_series", "daemon", "memory"),
        "read when scraped, not when added");
    b.close();
    assertEquals(5, MetricValues.of(registry, "netweather_test_series", "daemon", "memory"));
    a.close();
    c.close();
    assertEquals(
        0,
        registry.scrape().stream()
            .filter(m -> m.getMetadata().getName().equals("netweather_test_series"))
            .mapToInt(m -> m.getDataPoints().size())
            .sum(),
        "no samples for stopped daemons");
  }
}
