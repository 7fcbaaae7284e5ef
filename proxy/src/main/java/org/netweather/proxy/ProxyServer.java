package org.netweather.proxy;

import com.github.benmanes.caffeine.cache.Ticker;
import io.grpc.ManagedChannel;
import io.grpc.ServerBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.api.v1.Registration;
import org.netweather.client.NetWeatherClient;
import org.netweather.runtime.Daemon;

/**
 * The proxy daemon for one cluster: discovers the cluster's hosts, follows the forecasters into a
 * {@link ClusterCache}, serves snapshots, and registers as kind {@code proxy} with {@code
 * cluster=NAME}.
 *
 * <pre>{@code
 * try (ProxyServer p = ProxyServer.start(props, ServerBuilder.forPort(props.port), channels)) {
 *   p.awaitTermination();
 * }
 * }</pre>
 */
public final class ProxyServer implements AutoCloseable {
  private static final int HOSTS_ATTRIBUTE_MAX = 1024;

  static final long REBUILD_PERIOD_MS = 500;

  private final Daemon daemon;
  private final ClusterCache cache;

  private ProxyServer(Daemon daemon, ClusterCache cache) {
    this.daemon = daemon;
    this.cache = cache;
  }

  /**
   * Starts the proxy: its gRPC service, host discovery and the cluster cache.
   *
   * @param channels opens channels to the nameserver and the forecasters; they are owned
   */
  public static ProxyServer start(
      ProxyProperties props, ServerBuilder<?> builder, Function<String, ManagedChannel> channels)
      throws IOException {
    String problem = org.netweather.model.SeriesName.nameProblem("cluster", props.cluster);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    // Every handler here only reads a prebuilt snapshot: run it on the transport thread and save
    // a hand-off per call, which on a busy host is where the tail latency comes from.
    builder.directExecutor();
    return Daemon.start(
        "proxy",
        builder,
        channels,
        daemon -> {
          // Discovery, stream restarts, refreshes and snapshot watchers: short tasks on a small
          // pool.
          ScheduledExecutorService scheduler = daemon.scheduler("proxy-sched", 2);
          ManagedChannel ns = daemon.channel(props.nameserver);
          ForecastFollower[] follower = new ForecastFollower[1];
          ClusterCache.Settings defaults = ClusterCache.Settings.defaults();
          ClusterCache cache =
              new ClusterCache(
                  props.cluster,
                  new ClusterCache.Settings(
                      props.staleFactor,
                      props.minStaleMs,
                      props.defaultStaleMs,
                      defaults.refreshAfter(),
                      defaults.expireAfter(),
                      defaults.rebuildMs()),
                  series -> follower[0].fetch(series),
                  scheduler,
                  Ticker.systemTicker(),
                  System::currentTimeMillis);
          // Forecast calls go through the client library, which routes each to the forecaster
          // serving its series; a refresh read gets the 2 s it always had, and no retry.
          NetWeatherClient forecasts =
              NetWeatherClient.forChannel(ns)
                  .deadline(Duration.ofSeconds(2))
                  .maxAttempts(1)
                  .channels(daemon.channels())
                  .scheduler(scheduler)
                  .build();
          follower[0] = daemon.own(new ForecastFollower(forecasts, cache, scheduler));
          daemon.own(ProxyMetrics.gauges(daemon.name(), cache));
          daemon.serve(List.of(new ProxyService(cache, scheduler)));
          // Within half a second of a change: far below any series' period, and a 64-host rebuild
          // (about 2 ms and 3 MB of garbage) at most twice a second stays out of readers' way.
          cache.rebuildEvery(scheduler, REBUILD_PERIOD_MS);
          HostDiscovery hosts = new HostDiscovery(ns, props.cluster, props.hosts);
          scheduler.scheduleWithFixedDelay(
              () -> {
                List<String> now = hosts.hosts(cache.hosts());
                if (!now.equals(cache.hosts())) {
                  cache.setHosts(now);
                  follower[0].restart();
                }
              },
              0,
              props.discoveryMs,
              TimeUnit.MILLISECONDS);
          String host = Daemon.host(props.host);
          Registration.Builder reg =
              daemon
                  .registration("proxy", host, Daemon.advertise(props.advertise, host))
                  .setName("proxy-" + props.cluster + "@" + host)
                  .putAttributes("cluster", props.cluster);
          // The hosts it was told of, so that `nws status` can name those without a sensor; a
          // list too long for one attribute (1 024 characters) is left out rather than cut.
          String hostList = String.join(",", props.hosts);
          if (!hostList.isEmpty() && hostList.length() <= HOSTS_ATTRIBUTE_MAX) {
            reg.putAttributes("hosts", hostList);
          }
          daemon.register(ns, reg.build(), Duration.ofSeconds(props.ttlSeconds), scheduler, true);
          return new ProxyServer(daemon, cache);
        });
  }

  public int getPort() {
    return daemon.port();
  }

  public ClusterCache cache() {
    return cache;
  }

  public void awaitTermination() throws InterruptedException {
    daemon.awaitTermination();
  }

  @Override
  public void close() {
    daemon.close();
  }
}
