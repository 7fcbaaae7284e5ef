package org.netweather.runtime.metrics;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;

/**
 * A gauge read from the daemons that are running, one sample per daemon: each daemon adds a source
 * when it starts and closes it when it stops, so a gauge never reports a daemon that is gone.
 * Sources with the same daemon label (two memory-hosts in one test JVM) are summed.
 *
 * <pre>{@code
 * static final LiveGauge SERIES = LiveGauge.standard("netweather_memory_series", "Series stored");
 * AutoCloseable source = SERIES.add("memory", store::seriesCount); // close() when stopping
 * }</pre>
 */
public final class LiveGauge {
  private final Map<Object, Source> sources = new ConcurrentHashMap<>();

  private record Source(String daemon, DoubleSupplier value) {}

  /** A gauge {@code name} with a {@code daemon} label, registered in {@code registry}. */
  public LiveGauge(PrometheusRegistry registry, String name, String help) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .labelNames("daemon")
        .callback(
            cb -> {
              Map<String, Double> byDaemon = new TreeMap<>();
              for (Source s : sources.values()) {
                byDaemon.merge(s.daemon(), s.value().getAsDouble(), Double::sum);
              }
              byDaemon.forEach((daemon, v) -> cb.call(v, daemon));
            })
        .register(registry);
  }

  /** A gauge in the process's default registry, which the metrics endpoint serves. */
  public static LiveGauge standard(String name, String help) {
    return new LiveGauge(PrometheusRegistry.defaultRegistry, name, help);
  }

  /** One handle for several sources, e.g. a daemon's gauges, closing all of them. */
  public static AutoCloseable all(AutoCloseable... sources) {
    AutoCloseable[] handles = sources.clone();
    return () -> {
      for (AutoCloseable h : handles) {
        h.close();
      }
    };
  }

  /** Reports {@code value} under {@code daemon} until the returned handle is closed. */
  public AutoCloseable add(String daemon, DoubleSupplier value) {
    Object key = new Object();
    sources.put(key, new Source(daemon, value));
    return () -> sources.remove(key);
  }
}
