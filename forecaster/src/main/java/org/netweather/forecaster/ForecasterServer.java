package org.netweather.forecaster;

import io.grpc.ManagedChannel;
import io.grpc.ServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import org.netweather.api.v1.Registration;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.runtime.Addresses;
import org.netweather.runtime.DaemonServer;
import org.netweather.runtime.NamedThreadFactory;
import org.netweather.runtime.Registrar;

/**
 * The forecaster daemon: finds memory-hosts through the nameserver, follows their appends into
 * a battery per series, serves forecasts, and registers itself as kind {@code forecaster}.
 *
 * <pre>{@code
 * try (ForecasterServer f = ForecasterServer.start(props, ServerBuilder.forPort(props.port),
 *     ForecasterServer::plaintext)) {
 *   f.awaitTermination();
 * }
 * }</pre>
 */
public final class ForecasterServer implements AutoCloseable {
  private final DaemonServer server;
  private final SeriesForecasts forecasts;

  private ForecasterServer(DaemonServer server, SeriesForecasts forecasts) {
    this.server = server;
    this.forecasts = forecasts;
  }

  /** Opens plaintext channels, as every daemon on a trusted network does by default. */
  public static ManagedChannel plaintext(String address) {
    return NettyChannelBuilder.forTarget(address).usePlaintext().build();
  }

  /**
   * Starts the forecaster: its gRPC service, registration and the memory-host followers.
   *
   * @param channels opens channels to the nameserver and memory-hosts (tests pass in-process
   *     ones); the channels are owned and closed by the server
   */
  public static ForecasterServer start(ForecasterProperties props, ServerBuilder<?> builder,
      Function<String, ManagedChannel> channels) throws IOException {
    BatteryLayout layout = BatteryLayout.standard().withBurnIn(props.burnIn);
    SeriesForecasts forecasts = new SeriesForecasts(layout);
    DaemonServer server = new DaemonServer("forecaster", builder,
        List.of(new ForecasterService(forecasts, layout)));
    // Reconnects, discovery and heartbeats are short tasks; two threads keep one slow call
    // from delaying the rest.
    ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2,
        new NamedThreadFactory("forecaster-sched"));
    server.closeAfter(scheduler::shutdownNow);
    ManagedChannel ns = channels.apply(props.nameserver);
    server.closeAfter(ns::shutdownNow);
    MemoryDiscovery discovery = new MemoryDiscovery(ns, channels, forecasts, scheduler,
        ForecasterMetrics.forDaemon(server.name()));
    server.closeAfter(discovery);
    server.closeAfter(ForecasterMetrics.gauges(server.name(), forecasts, discovery));
    try {
      server.start();
    } catch (IOException e) {
      server.close();
      throw e;
    }
    String host = props.host.isEmpty() ? Addresses.localHostName() : props.host;
    Registrar registrar = new Registrar(ns, Registration.newBuilder()
        .setName(props.name.isEmpty() ? "forecaster@" + host : props.name)
        .setKind("forecaster")
        .setAddress(host + ":" + server.getPort())
        .putAttributes("host", host)
        .build(), Duration.ofSeconds(props.ttlSeconds), scheduler, true);
    server.closeAfter(registrar);
    registrar.start();
    discovery.start(props.discoveryMs);
    return new ForecasterServer(server, forecasts);
  }

  public int getPort() {
    return server.getPort();
  }

  public SeriesForecasts forecasts() {
    return forecasts;
  }

  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  @Override
  public void close() {
    server.close();
  }
}
