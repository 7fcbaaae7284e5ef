package org.netweather.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.inprocess.InProcessServerBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.Measurement;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.InProcessChannels;
import org.netweather.testing.MetricValues;

/**
 * The proxy daemon's own metrics, read from the process's default registry. No nameserver answers,
 * so the cluster is the configured hosts.
 */
class ProxyMetricsTest {
  private static final String DAEMON = "proxy";

  private static double value(String name) {
    return MetricValues.of(name, "daemon", DAEMON);
  }

  @Test
  void daemon_reportsClusterHostsAndCachedForecasts_andForgetsThemWhenClosed() throws Exception {
    ProxyProperties p =
        ProxyProperties.defaults()
            .with(ProxyProperties.CLUSTER, "c")
            .with(ProxyProperties.HOSTS, List.of("a", "b", "c"))
            .with(ProxyProperties.HOST, "p")
            .with(ProxyProperties.NAMESERVER, GrpcCleanupExtension.newName() + ":0") // nobody there
            .with(ProxyProperties.DISCOVERY_MS, 50L);
    double hosts = value("netweather_proxy_cluster_hosts");
    double cached = value("netweather_proxy_cached_forecasts");

    try (ProxyServer proxy =
        ProxyServer.start(
            p,
            InProcessServerBuilder.forName(GrpcCleanupExtension.newName()),
            InProcessChannels::forAddress)) {
      assertEquals(
          hosts + 3, MetricValues.await(hosts + 3, () -> value("netweather_proxy_cluster_hosts")));
      assertEquals(cached, value("netweather_proxy_cached_forecasts"));
      proxy
          .cache()
          .put(
              Forecast.newBuilder()
                  .setSeries("cpu.availability:a")
                  .setValue(0.5)
                  .setLast(
                      Measurement.newBuilder()
                          .setTimestampMs(System.currentTimeMillis())
                          .setValue(0.5))
                  .build());
      assertEquals(cached + 1, value("netweather_proxy_cached_forecasts"));
    }
    assertEquals(
        hosts, value("netweather_proxy_cluster_hosts"), "a stopped daemon reports nothing");
    assertEquals(cached, value("netweather_proxy_cached_forecasts"));
  }
}
