package org.netweather.proxy;

import com.github.benmanes.caffeine.cache.Ticker;
import io.grpc.ManagedChannel;
import io.grpc.ServerBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.api.v1.Registration;
import org.netweather.runtime.Addresses;
import org.netweather.runtime.DaemonServer;
import org.netweather.runtime.NamedThreadFactory;
import org.netweather.runtime.Registrar;

/**
 * The proxy daemon for one cluster: discovers the cluster's hosts, follows the forecaster into a
 * {@link ClusterCache}, serves snapshots, and registers as kind {@code proxy} with
 * {@code cluster=NAME}.
 *
 * <pre>{@code
 * try (ProxyServer p = ProxyServer.start(props, ServerBuilder.forPort(props.port), channels)) {
 *   p.awaitTermination();
 * }
 * }</pre>
 */
public final class ProxyServer implements AutoCloseable {
  static final long REBUILD_PERIOD_MS = 500;

  private final DaemonServer server;
  private final ClusterCache cache;

  private ProxyServer(DaemonServer server, ClusterCache cache) {
    this.server = server;
    this.cache = cache;
  }

  /**
   * Starts the proxy: its gRPC service, host discovery and the cluster cache.
   *
   * @param channels opens channels to the nameserver and the forecaster; they are owned
   */
  public static ProxyServer start(ProxyProperties props, ServerBuilder<?> builder,
      Function<String, ManagedChannel> channels) throws IOException {
    String problem = org.netweather.model.SeriesName.nameProblem("cluster", props.cluster);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    // Discovery, stream restarts, refreshes and snapshot watchers: short tasks on a small pool.
    ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2,
        new NamedThreadFactory("proxy-sched"));
    ManagedChannel ns = channels.apply(props.nameserver);
    ForecastFollower[] follower = new ForecastFollower[1];
    ClusterCache.Settings defaults = ClusterCache.Settings.defaults();
    ClusterCache cache = new ClusterCache(props.cluster,
        new ClusterCache.Settings(props.staleFactor, props.minStaleMs, props.defaultStaleMs,
            defaults.refreshAfter(), defaults.expireAfter(), defaults.rebuildMs()),
        series -> follower[0].fetch(series), scheduler, Ticker.systemTicker(),
        System::currentTimeMillis);
    follower[0] = new ForecastFollower(ns, channels, cache, scheduler);
    // Every handler here only reads a prebuilt snapshot: run it on the transport thread and save
    // a hand-off per call, which on a busy host is where the tail latency comes from.
    builder.directExecutor();
    DaemonServer server = new DaemonServer("proxy", builder,
        List.of(new ProxyService(cache, scheduler)));
    server.closeAfter(scheduler::shutdownNow);
    server.closeAfter(ns::shutdownNow);
    server.closeAfter(follower[0]);
    server.closeAfter(ProxyMetrics.gauges(server.name(), cache));
    try {
      server.start();
    } catch (IOException e) {
      server.close();
      throw e;
    }
    // Within half a second of a change: far below any series' period, and a 64-host rebuild
    // (about 2 ms and 3 MB of garbage) at most twice a second stays out of readers' way.
    cache.rebuildEvery(scheduler, REBUILD_PERIOD_MS);
    HostDiscovery hosts = new HostDiscovery(ns, props.cluster, props.hosts);
    scheduler.scheduleWithFixedDelay(() -> {
      List<String> now = hosts.hosts(cache.hosts());
      if (!now.equals(cache.hosts())) {
        cache.setHosts(now);
        follower[0].restart();
      }
    }, 0, props.discoveryMs, TimeUnit.MILLISECONDS);
    String host = props.host.isEmpty() ? Addresses.localHostName() : props.host;
    Registrar registrar = new Registrar(ns, Registration.newBuilder()
        .setName("proxy-" + props.cluster + "@" + host)
        .setKind("proxy")
        .setAddress(host + ":" + server.getPort())
        .putAttributes("host", host)
        .putAttributes("cluster", props.cluster)
        .build(), Duration.ofSeconds(props.ttlSeconds), scheduler, true);
    server.closeAfter(registrar);
    registrar.start();
    return new ProxyServer(server, cache);
  }

  public int getPort() {
    return server.getPort();
  }

  public ClusterCache cache() {
    return cache;
  }

  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  @Override
  public void close() {
    server.close();
  }
}
