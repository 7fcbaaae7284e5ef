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
  private final Daemon daemon;
  private final SeriesForecasts forecasts;

  private ForecasterServer(Daemon daemon, SeriesForecasts forecasts) {
    this.daemon = daemon;
    this.forecasts = forecasts;
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
          daemon.own(
              new ForecastExport(
                  daemon.name(),
                  forecasts,
                  SeriesPattern.parse(props.metricsSeries),
                  props.metricsSeriesMax,
                  System::currentTimeMillis,
                  PrometheusRegistry.defaultRegistry));
          daemon.serve(
              List.of(
                  new ForecasterService(
                      forecasts,
                      layout,
                      StreamLimits.watches(
                          "forecaster", props.maxWatches, props.maxWatchesPerCaller),
                      props.coverage)));
          String host = Daemon.host(props.host);
          Registration.Builder reg =
              daemon.registration("forecaster", host, Daemon.advertise(props.advertise, host));
          if (!props.name.isEmpty()) {
            reg.setName(props.name);
          }
          daemon.register(ns, reg.build(), Duration.ofSeconds(props.ttlSeconds), scheduler, true);
          discovery.start(props.discoveryMs);
          return new ForecasterServer(daemon, forecasts);
        });
  }

  public int getPort() {
    return daemon.port();
  }

  public SeriesForecasts forecasts() {
    return forecasts;
  }

  public void awaitTermination() throws InterruptedException {
    daemon.awaitTermination();
  }

  @Override
  public void close() {
    daemon.close();
  }
}
