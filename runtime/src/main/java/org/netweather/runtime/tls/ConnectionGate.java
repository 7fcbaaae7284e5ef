package org.netweather.runtime.tls;

import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler.Sharable;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits on a server's listening channel and sees every connection it accepts before gRPC does: a
 * connection beyond {@link ConnectionLimits#maxConnections} in all, or beyond {@link
 * ConnectionLimits#maxConnectionsPerAddress} from its IP address, is closed at once, before it
 * costs more than the moment its descriptor was open. Counted in
 *
 * <pre>
 *   netweather_connections_refused_total{port, reason="per_address"|"total"}
 *   netweather_connections_open{port}
 * </pre>
 *
 * <p>Thread-safe; one per server.
 */
@Sharable
final class ConnectionGate extends ChannelInboundHandlerAdapter {
  private static final Logger log = LoggerFactory.getLogger(ConnectionGate.class);
  private static volatile Metrics metrics;

  private final ConnectionLimits limits;
  private final Map<InetAddress, Integer> perAddress = new HashMap<>();
  private int total;

  ConnectionGate(ConnectionLimits limits) {
    this.limits = limits;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof Channel child)) {
      ctx.fireChannelRead(msg);
      return;
    }
    String port = port(ctx.channel().localAddress());
    InetAddress from = address(child.remoteAddress());
    String refusal = admit(from);
    if (refusal != null) {
      // Not registered with an event loop yet: close its descriptor right here.
      child.unsafe().closeForcibly();
      metrics().refused.labelValues(port, refusal).inc();
      log.warn(
          "refused a connection from {} to port {}: {}",
          from == null ? "an unknown address" : from.getHostAddress(),
          port,
          "total".equals(refusal)
              ? "the server holds its limit of "
                  + limits.maxConnections()
                  + " connections (maxConnections)"
              : "that address holds the limit of "
                  + limits.maxConnectionsPerAddress()
                  + " connections per address (maxConnectionsPerAddress)");
      return;
    }
    metrics().open.labelValues(port).inc();
    child.closeFuture().addListener(f -> release(from, port));
    ctx.fireChannelRead(child);
  }

  /** Takes a slot for a connection from {@code from}; null if granted, else the refusal reason. */
  synchronized String admit(InetAddress from) {
    if (total >= limits.maxConnections()) {
      return "total";
    }
    int mine = perAddress.getOrDefault(from, 0);
    if (from != null && mine >= limits.maxConnectionsPerAddress()) {
      return "per_address";
    }
    if (from != null) {
      perAddress.put(from, mine + 1);
    }
    total++;
    return null;
  }

  private void release(InetAddress from, String port) {
    synchronized (this) {
      total--;
      if (from != null) {
        perAddress.computeIfPresent(from, (a, n) -> n <= 1 ? null : n - 1);
      }
    }
    metrics().open.labelValues(port).dec();
  }

  private static InetAddress address(SocketAddress a) {
    return a instanceof InetSocketAddress inet ? inet.getAddress() : null;
  }

  private static String port(SocketAddress a) {
    return a instanceof InetSocketAddress inet ? Integer.toString(inet.getPort()) : "";
  }

  private static Metrics metrics() {
    Metrics m = metrics;
    if (m == null) {
      synchronized (ConnectionGate.class) {
        if (metrics == null) {
          metrics = new Metrics(PrometheusRegistry.defaultRegistry);
        }
        m = metrics;
      }
    }
    return m;
  }

  /** The process's connection metrics, in the registry the metrics endpoint serves. */
  private static final class Metrics {
    final Counter refused;
    final Gauge open;

    Metrics(PrometheusRegistry registry) {
      refused =
          Counter.builder()
              .name("netweather_connections_refused")
              .help("Connections a daemon's server closed on accepting them, by the limit hit")
              .labelNames("port", "reason")
              .register(registry);
      open =
          Gauge.builder()
              .name("netweather_connections_open")
              .help("Connections open on a daemon's server")
              .labelNames("port")
              .register(registry);
    }
  }
}
