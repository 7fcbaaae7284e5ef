package org.netweather.memoryhost;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.ServerInterceptors;
import io.grpc.ServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.Registration;
import org.netweather.runtime.Addresses;
import org.netweather.runtime.DaemonServer;
import org.netweather.runtime.NamedThreadFactory;
import org.netweather.runtime.Registrar;

/**
 * The memory-host daemon: opens its store, serves it over gRPC, and keeps itself registered with
 * the nameserver as kind {@code memory}.
 *
 * <pre>{@code
 * try (MemoryHostServer m = MemoryHostServer.start(props, ServerBuilder.forPort(props.port))) {
 *   m.awaitTermination();
 * }
 * }</pre>
 */
public final class MemoryHostServer implements AutoCloseable {
  private final DaemonServer server;
  private final MeasurementStore store;

  private MemoryHostServer(DaemonServer server, MeasurementStore store) {
    this.server = server;
    this.store = store;
  }

  public static MemoryHostServer start(MemoryHostProperties props, ServerBuilder<?> builder)
      throws IOException {
    Addresses.parse("nameserver", props.nameserver); // before anything is opened
    Clock clock = Clock.systemUTC();
    // Watch delivery: a few threads suffice, each drain is short and never blocks.
    ExecutorService watchPool = Executors.newFixedThreadPool(2,
        new NamedThreadFactory("memory-watch"));
    String daemon = "memory";
    MeasurementStore store;
    try {
      store = MeasurementStore.open(props.storeOptions(), clock, watchPool,
          MemoryMetrics.forDaemon(daemon));
    } catch (IOException | RuntimeException e) {
      watchPool.shutdown();
      throw e;
    }
    MemoryHostService service = new MemoryHostService(store, clock);
    BindableService withCaller = () -> ServerInterceptors.intercept(service,
        MemoryHostService.callerInterceptor());
    DaemonServer server = new DaemonServer(daemon, builder, List.of(withCaller));
    server.closeAfter(() -> {
      watchPool.shutdown();
      watchPool.awaitTermination(5, TimeUnit.SECONDS);
    });
    server.closeAfter(store);
    // Closed before the store: a scrape never reads a closed one.
    server.closeAfter(MemoryMetrics.gauges(daemon, store));
    try {
      server.start();
    } catch (IOException e) {
      server.close();
      throw e;
    }
    String host = props.host.isEmpty() ? Addresses.localHostName() : props.host;
    Registration.Builder reg = Registration.newBuilder()
        .setName(props.name.isEmpty() ? "memory@" + host : props.name)
        .setKind("memory")
        .setAddress(host + ":" + server.getPort())
        .putAttributes("host", host)
        .putAttributes("started", Long.toString(clock.millis()));
    if (!props.cluster.isEmpty()) {
      reg.putAttributes("cluster", props.cluster);
    }
    ManagedChannel ns = NettyChannelBuilder.forTarget(props.nameserver).usePlaintext().build();
    ScheduledExecutorService beat = Executors.newSingleThreadScheduledExecutor(
        new NamedThreadFactory("memory-registrar"));
    // Not unregistered on close: a restart within the TTL must not move this host's series.
    Registrar registrar = new Registrar(ns, reg.build(), Duration.ofSeconds(props.ttlSeconds),
        beat, false);
    // Closed first on shutdown (reverse order): unregister, then stop the channel and timer.
    server.closeAfter(() -> {
      beat.shutdownNow();
      ns.shutdownNow();
    });
    server.closeAfter(registrar);
    registrar.start();
    return new MemoryHostServer(server, store);
  }

  public int getPort() {
    return server.getPort();
  }

  public MeasurementStore store() {
    return store;
  }

  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  @Override
  public void close() {
    server.close();
  }
}
