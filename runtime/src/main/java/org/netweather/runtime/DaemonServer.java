package org.netweather.runtime;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.netweather.runtime.auth.AuthorizationInterceptor;
import org.netweather.runtime.auth.CallerInterceptor;
import org.netweather.runtime.auth.SitePolicy;
import org.netweather.runtime.metrics.RpcMetrics;

/**
 * The gRPC server every daemon runs, started and stopped by its {@link Daemon}: its services plus
 * health and reflection, every call counted and timed ({@link RpcMetrics}, labelled with the
 * daemon's name), a request that is not a message of its rpc's type refused as {@code
 * INVALID_ARGUMENT} ({@link RequestDecoding}). The builder is passed in so tests can use an
 * in-process one.
 */
final class DaemonServer {
  private final Server server;
  private final HealthStatusManager health = new HealthStatusManager();
  private final InFlightCalls inFlight = new InFlightCalls();

  DaemonServer(String name, ServerBuilder<?> builder, List<BindableService> services) {
    for (BindableService s : services) {
      builder.addService(RequestDecoding.tolerant(s.bindService()));
    }
    builder.addService(RequestDecoding.tolerant(health.getHealthService().bindService()));
    builder.addService(
        RequestDecoding.tolerant(ProtoReflectionServiceV1.newInstance().bindService()));
    // Interceptors added later run first: the caller is established, the call counted (refusals
    // too, by their status code), undecodable requests refused, then authorized and served.
    builder.intercept(new AuthorizationInterceptor(SitePolicy.rules(), false));
    builder.intercept(new RequestDecoding());
    builder.intercept(RpcMetrics.standard().forDaemon(name));
    builder.intercept(new CallerInterceptor());
    builder.intercept(inFlight); // outermost: every call counted until it ends, refused or not
    this.server = builder.build();
  }

  void start() throws IOException {
    server.start();
    health.setStatus("", ServingStatus.SERVING);
  }

  /**
   * The bound port; useful when the daemon was asked for port 0. An in-process server has no port
   * and reports 0, so its advertised {@code name:0} address is still well-formed.
   */
  int getPort() {
    return Math.max(0, server.getPort());
  }

  void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /**
   * Health goes to its terminal state (NOT_SERVING to watchers), new calls are refused, unary calls
   * in flight get {@code grace} to finish, then every call still open (streams at once) is
   * cancelled. A peer whose stream is cancelled reconnects or retries, as after any restart.
   */
  void stop(Duration grace) {
    health.enterTerminalState();
    server.shutdown();
    try {
      inFlight.awaitUnaryDone(grace.toMillis());
      server.shutdownNow();
      server.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
