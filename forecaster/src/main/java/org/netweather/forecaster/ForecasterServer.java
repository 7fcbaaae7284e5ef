package org.netweather.forecaster;

import io.grpc.ManagedChannel;
import io.grpc.ServerBuilder;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import org.netweather.api.v1.Registration;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.model.SeriesPattern;
import org.netweather.model.shard.ShardSet;
import org.netweather.registry.Registry;
import org.netweather.registry.zookeeper.ZooKeeperRegistry;
import org.netweather.runtime.Daemon;
import org.netweather.runtime.StreamLimits;

/**
 * The forecaster daemon: finds memory-hosts through the nameserver, follows their appends into a
 * battery per series, serves forecasts, and registers itself as kind {@code forecaster}.
 *
 * <pre>{@code
 * try (ForecasterServer f = ForecasterServer.start(props, ServerBuilder.forPort(props.port),
 *     Channels::plaintext)) {
 *   f.awaitTermination();
 * }
 * }</pre>
 */
public final class ForecasterServer implements AutoCloseable {
  /** A forecaster missing from the group for less than this moves no shard (a restart). */
  static final Duration SETTLE = Duration.ofSeconds(2);

  /** How long an old owner keeps a shard for a new owner that never says it is warm. */
  static final Duration HANDOFF_BOUND = Duration.ofSeconds(60);

  /** How long a shard taken over may wait for a memory-host that never catches up. */
  static final Duration WARM_BOUND = Duration.ofSeconds(30);

  /** How often the bounds above are checked. */
  static final Duration TICK = Duration.ofSeconds(1);

  private final Daemon daemon;
  private final SeriesForecasts forecasts;
  private final ShardMembership membership; // null unless the site's forecasters share shards

  private ForecasterServer(Daemon daemon, SeriesForecasts forecasts, ShardMembership membership) {
    this.daemon = daemon;
    this.forecasts = forecasts;
    this.membership = membership;
  }

  /**
   * Starts the forecaster: its gRPC service, registration and the memory-host followers.
   *
   * @param channels opens channels to the nameserver and memory-hosts (tests pass in-process ones);
   *     the channels are owned and closed by the server
   */
  public static ForecasterServer start(
      ForecasterProperties props,
      ServerBuilder<?> builder,
      Function<String, ManagedChannel> channels)
      throws IOException {
    return Daemon.start(
        "forecaster",
        builder,
        channels,
        daemon -> {
          BatteryLayout layout = BatteryLayout.standard().withBurnIn(props.burnIn);
          SeriesForecasts forecasts = new SeriesForecasts(layout);
          // Reconnects, discovery and heartbeats are short tasks; two threads keep one slow call
          // from delaying the rest.
          ScheduledExecutorService scheduler = daemon.scheduler("forecaster-sched", 2);
          ManagedChannel ns = daemon.channel(props.nameserver);
          MemoryDiscovery discovery =
              daemon.own(
                  new MemoryDiscovery(
                      ns,
                      daemon.channels(),
                      forecasts,
                      layout.warmUpPoints(),
                      scheduler,
                      ForecasterMetrics.forDaemon(daemon.name())));
          daemon.own(ForecasterMetrics.gauges(daemon.name(), forecasts, discovery));
          String host = Daemon.host(props.host);
          String name = props.name.isEmpty() ? "forecaster@" + host : props.name;
          ShardGate gate = ShardGate.ALL;
          ShardMembership membership = null;
          if (!props.registry.isLocal()) {
            // Sharded: the member id is the registration name, stable across restarts, so that
            // a forecaster restarted within its session takes its shards back and nothing moves.
            Registry registry =
                daemon.own(ZooKeeperRegistry.open(props.registry, props.registryTls()));
            ShardMembership m =
                new ShardMembership(
                    registry,
                    name,
                    new ShardOwnership(
                        name,
                        System::currentTimeMillis,
                        SETTLE.toMillis(),
                        HANDOFF_BOUND.toMillis(),
                        WARM_BOUND.toMillis()),
                    discovery,
                    forecasts,
                    scheduler);
            discovery.sharded(ShardSet.none(), m::warmed);
            membership = daemon.own(m);
            gate = m;
          }
          daemon.own(ForecasterMetrics.shardGauges(daemon.name(), gate));
          daemon.own(
              new ForecastExport(
                  daemon.name(),
                  forecasts,
                  SeriesPattern.parse(props.metricsSeries),
                  props.metricsSeriesMax,
                  System::currentTimeMillis,
                  PrometheusRegistry.defaultRegistry));
          ForecasterService service =
              new ForecasterService(
                  forecasts,
                  layout,
                  StreamLimits.watches("forecaster", props.maxWatches, props.maxWatchesPerCaller),
                  props.coverage,
                  gate);
          daemon.serve(List.of(service));
          Registration.Builder reg =
              daemon
                  .registration("forecaster", host, Daemon.advertise(props.advertise, host))
                  .setName(name);
          if (membership != null) {
            reg.putAttributes("sharding", "rendezvous");
          }
          daemon.register(ns, reg.build(), Duration.ofSeconds(props.ttlSeconds), scheduler, true);
          discovery.start(props.discoveryMs);
          if (membership != null) {
            membership
                .onServingChanged(service::servingChanged)
                .start(reg.getAddress(), TICK.toMillis());
          }
          return new ForecasterServer(daemon, forecasts, membership);
        });
  }

  public int getPort() {
    return daemon.port();
  }

  public SeriesForecasts forecasts() {
    return forecasts;
  }

  /** The shards this forecaster owns now, warm or warming: every shard without a registry. */
  public ShardSet ownedShards() {
    return membership == null ? ShardSet.all() : membership.shares().owned().copy();
  }

  /** The shards this forecaster answers for now: every shard without a registry. */
  public ShardSet servedShards() {
    return membership == null ? ShardSet.all() : membership.shares().serving().copy();
  }

  public void awaitTermination() throws InterruptedException {
    daemon.awaitTermination();
  }

  @Override
  public void close() {
    daemon.close();
  }
}
