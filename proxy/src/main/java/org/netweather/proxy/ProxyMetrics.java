package org.netweather.proxy;

import org.netweather.runtime.metrics.LiveGauge;

/**
 * What a proxy holds, as Prometheus metrics beside the RPC metrics every daemon has (which already
 * count the snapshots it serves):
 *
 * <pre>
 *   netweather_proxy_cluster_hosts{daemon}      hosts in the cluster view
 *   netweather_proxy_cached_forecasts{daemon}   forecasts in the cache
 * </pre>
 *
 * <p>Registered once per process (tests run several daemons in one JVM).
 */
final class ProxyMetrics {
  private static final LiveGauge CLUSTER_HOSTS =
      LiveGauge.standard(
          "netweather_proxy_cluster_hosts", "Hosts in a proxy's view of its cluster");
  private static final LiveGauge CACHED_FORECASTS =
      LiveGauge.standard(
          "netweather_proxy_cached_forecasts",
          "Forecasts a proxy holds for its cluster's series (an estimate: expired ones may linger)");

  private ProxyMetrics() {}

  /** Reports {@code cache}'s hosts and forecasts under {@code daemon} until closed. */
  static AutoCloseable gauges(String daemon, ClusterCache cache) {
    return LiveGauge.all(
        CLUSTER_HOSTS.add(daemon, () -> cache.hosts().size()),
        CACHED_FORECASTS.add(daemon, cache::cachedForecasts));
  }
}
