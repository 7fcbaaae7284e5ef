package org.netweather.runtime;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.netweather.runtime.metrics.RpcMetrics;

/**
 * The lifecycle every daemon's gRPC server shares: its services plus health and reflection,
 * every call counted and timed ({@link RpcMetrics}, labelled with the daemon's name), start,
 * {@link #getPort()}, and a graceful close. The builder is passed in so tests can use an
 * in-process one.
 *
 * <pre>{@code
 * try (DaemonServer server = new DaemonServer("memory", ServerBuilder.forPort(8050),
 *     List.of(new MemoryHostService(store)))) {
 *   server.start();
 *   server.awaitTermination();
 * }
 * }</pre>
 */
public final class DaemonServer implements AutoCloseable {
  private final String name;
  private final Server server;
  private final HealthStatusManager health = new HealthStatusManager();
  private final List<AutoCloseable> owned = new ArrayList<>();

  public DaemonServer(String name, ServerBuilder<?> builder, List<BindableService> services) {
    this.name = name;
    for (BindableService s : services) {
      builder.addService(s);
    }
    builder.addService(health.getHealthService());
    builder.addService(ProtoReflectionServiceV1.newInstance());
    builder.intercept(RpcMetrics.standard().forDaemon(name));
    this.server = builder.build();
  }

  /** Closes {@code resource} after the server has stopped, in reverse order of adding. */
  public DaemonServer closeAfter(AutoCloseable resource) {
    owned.add(resource);
    return this;
  }

  public DaemonServer start() throws IOException {
    server.start();
    health.setStatus("", ServingStatus.SERVING);
    return this;
  }

  /**
   * The bound port; useful when the daemon was asked for port 0. An in-process server has no
   * port and reports 0, so its advertised {@code name:0} address is still well-formed.
   */
  public int getPort() {
    return Math.max(0, server.getPort());
  }

  public String name() {
    return name;
  }

  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  @Override
  public void close() {
    health.enterTerminalState();
    server.shutdown();
    try {
      if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
    for (int i = owned.size() - 1; i >= 0; i--) {
      try {
        owned.get(i).close();
      } catch (Exception e) {
        System.err.println("*** " + name + ": closing " + owned.get(i) + " failed: " + e);
      }
    }
  }
}
