package org.netweather.runtime.metrics;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;

/** Reads single values out of a registry, for assertions. */
final class Scrapes {
  private Scrapes() {}

  /** The value of metric {@code name} at the given label pairs, 0 if it has no such point. */
  static double value(PrometheusRegistry registry, String name, String... labelPairs) {
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
}
