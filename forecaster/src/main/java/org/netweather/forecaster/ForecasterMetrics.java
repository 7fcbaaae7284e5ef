package org.netweather.forecaster;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import org.netweather.runtime.metrics.LiveGauge;

/**
 * What a forecaster does, as Prometheus metrics beside the RPC metrics every daemon has:
 *
 * <pre>
 *   netweather_forecaster_observed_measurements_total{daemon}   measurements fed to batteries
 *   netweather_forecaster_series{daemon}                        series with a battery
 *   netweather_forecaster_followed_memory_hosts{daemon}         memory-hosts followed
 *   netweather_forecaster_owned_shards{daemon}                  shards it owns (4096 alone)
 *   netweather_forecaster_warm_shards{daemon}                   shards it has warm and serves
 * </pre>
 *
 * <p>Registered once per process (tests run several daemons in one JVM); each daemon binds its
 * {@code daemon} label once, so following a stream only increments. The batteries themselves know
 * nothing of metrics.
 */
final class ForecasterMetrics {
  private static final Counter OBSERVED =
      Counter.builder()
          .name("netweather_forecaster_observed_measurements")
          .help(
              "Measurements fed to the predictor batteries; points a resumed watch stream sends"
                  + " again are not counted")
          .labelNames("daemon")
          .register();
  private static final LiveGauge SERIES =
      LiveGauge.standard(
          "netweather_forecaster_series", "Series a forecaster keeps a predictor battery for");
  private static final LiveGauge FOLLOWED =
      LiveGauge.standard(
          "netweather_forecaster_followed_memory_hosts",
          "Memory-hosts whose watch stream a forecaster follows");

  private static final LiveGauge OWNED =
      LiveGauge.standard(
          "netweather_forecaster_owned_shards",
          "Shards whose rendezvous owner a forecaster is, warm or warming (every shard when it"
              + " does not share the site)");
  private static final LiveGauge WARM =
      LiveGauge.standard(
          "netweather_forecaster_warm_shards",
          "Shards a forecaster serves: warm ones it owns and ones it is handing off");

  private final CounterDataPoint observed;

  private ForecasterMetrics(CounterDataPoint observed) {
    this.observed = observed;
  }

  /** The counters of the daemon called {@code daemon}. */
  static ForecasterMetrics forDaemon(String daemon) {
    return new ForecasterMetrics(OBSERVED.labelValues(daemon));
  }

  void observed(int measurements) {
    if (measurements > 0) {
      observed.inc(measurements);
    }
  }

  /** Reports the series and followed memory-hosts under {@code daemon} until closed. */
  static AutoCloseable gauges(String daemon, SeriesForecasts forecasts, MemoryDiscovery discovery) {
    return LiveGauge.all(
        SERIES.add(daemon, forecasts::size), FOLLOWED.add(daemon, discovery::followedCount));
  }

  /** Reports the owned and served shards of {@code daemon} until closed. */
  static AutoCloseable shardGauges(String daemon, ShardGate gate) {
    if (gate instanceof ShardMembership m) {
      return LiveGauge.all(
          OWNED.add(daemon, () -> m.shares().owned().size()),
          WARM.add(daemon, () -> m.shares().serving().size()));
    }
    int all = org.netweather.model.shard.Shards.COUNT;
    return LiveGauge.all(OWNED.add(daemon, () -> all), WARM.add(daemon, () -> all));
  }
}
