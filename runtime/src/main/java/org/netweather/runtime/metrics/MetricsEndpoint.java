package org.netweather.runtime.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.BindException;

/**
 * Serves a registry's metrics over HTTP at {@code /metrics} in the Prometheus text format, for a
 * Prometheus server to scrape. One per process: {@code nws up} runs every daemon behind one
 * endpoint, a daemon run alone has its own. The process's JVM metrics (memory, GC, threads) are
 * registered with the first endpoint on the default registry.
 *
 * <pre>{@code
 * try (MetricsEndpoint metrics = MetricsEndpoint.start("", 8059)) {
 *   ... // curl localhost:8059/metrics
 * }
 * }</pre>
 */
public final class MetricsEndpoint implements AutoCloseable {
  private static boolean jvmRegistered;

  /** The port of the endpoint serving the default registry, or -1; daemons advertise it. */
  private static volatile int defaultPort = -1;

  private final HTTPServer server;
  private final boolean servesDefault;

  private MetricsEndpoint(HTTPServer server, boolean servesDefault) {
    this.server = server;
    this.servesDefault = servesDefault;
  }

  /**
   * The port of this process's endpoint for the default registry (where every daemon's metrics
   * are), or -1 when none is open: a daemon registers it so that {@code nws status} can read them.
   */
  public static int defaultPort() {
    return defaultPort;
  }

  /**
   * Serves the default registry, with JVM metrics, on {@code port} (0: any free port) of {@code
   * host} (empty: every interface).
   */
  public static MetricsEndpoint start(String host, int port) throws IOException {
    checkPort(port);
    synchronized (MetricsEndpoint.class) {
      if (!jvmRegistered) {
        JvmMetrics.builder().register(PrometheusRegistry.defaultRegistry);
        jvmRegistered = true;
      }
    }
    MetricsEndpoint e = start(host, port, PrometheusRegistry.defaultRegistry);
    defaultPort = e.port();
    return e;
  }

  /** Serves {@code registry} on {@code port} (0: any free port) of every interface. */
  public static MetricsEndpoint start(int port, PrometheusRegistry registry) throws IOException {
    return start("", port, registry);
  }

  private static MetricsEndpoint start(String host, int port, PrometheusRegistry registry)
      throws IOException {
    checkPort(port);
    HTTPServer.Builder b = HTTPServer.builder().port(port).registry(registry);
    if (!host.isEmpty()) {
      b.hostname(host);
    }
    try {
      return new MetricsEndpoint(b.buildAndStart(), registry == PrometheusRegistry.defaultRegistry);
    } catch (BindException e) {
      // The JDK's message is a bare "Address already in use": say which port.
      throw new IOException(
          "metrics endpoint cannot listen on " + (host.isEmpty() ? "0.0.0.0" : host) + ":" + port,
          e);
    }
  }

  private static void checkPort(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("metrics port must be in [0, 65535], was " + port);
    }
  }

  /** The bound port. */
  public int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    if (servesDefault) {
      synchronized (MetricsEndpoint.class) {
        if (defaultPort == server.getPort()) {
          defaultPort = -1;
        }
      }
    }
    server.close();
  }
}
