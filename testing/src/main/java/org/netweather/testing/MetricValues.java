package org.netweather.testing;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.function.DoubleSupplier;

/**
 * Reads single values out of a Prometheus registry, for assertions about a daemon's metrics.
 *
 * <pre>{@code
 * double before = MetricValues.of("netweather_memory_series", "daemon", "memory");
 * }</pre>
 */
public final class MetricValues {
  private MetricValues() {}

  /** {@link #of(PrometheusRegistry, String, String...)} in the default registry. */
  public static double of(String name, String... labelPairs) {
    return of(PrometheusRegistry.defaultRegistry, name, labelPairs);
  }

  /**
   * The value of metric {@code name} (a counter's without {@code _total}) at exactly the given
   * label pairs, a histogram's count, or 0 if it has no such point.
   */
  public static double of(PrometheusRegistry registry, String name, String... labelPairs) {
    Labels wanted = Labels.of(labelPairs);
    for (MetricSnapshot m : registry.scrape()) {
      if (!m.getMetadata().getName().equals(name)) {
        continue;
      }
      if (m instanceof CounterSnapshot c) {
        for (var p : c.getDataPoints()) {
          if (p.getLabels().equals(wanted)) {
            return p.getValue();
          }
        }
      } else if (m instanceof GaugeSnapshot g) {
        for (var p : g.getDataPoints()) {
          if (p.getLabels().equals(wanted)) {
            return p.getValue();
          }
        }
      } else if (m instanceof HistogramSnapshot h) {
        for (var p : h.getDataPoints()) {
          if (p.getLabels().equals(wanted)) {
            return p.getCount();
          }
        }
      }
    }
    return 0;
  }

  /** Waits up to 30 s for {@code value} to become {@code expected}; returns the last read. */
  public static double await(double expected, DoubleSupplier value) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    double v = value.getAsDouble();
    while (v != expected && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
      v = value.getAsDouble();
    }
    return v;
  }
}
