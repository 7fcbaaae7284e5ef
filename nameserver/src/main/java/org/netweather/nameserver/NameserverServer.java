package org.netweather.nameserver;

import io.grpc.ServerBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.Registration;
import org.netweather.runtime.Addresses;
import org.netweather.runtime.DaemonServer;
import org.netweather.runtime.NamedThreadFactory;

/**
 * The nameserver daemon: opens its state, serves it over gRPC and registers itself (with a
 * lease it renews on its own, since it is its own registry).
 *
 * <pre>{@code
 * try (NameserverServer ns = NameserverServer.start(props, ServerBuilder.forPort(props.port))) {
 *   ns.awaitTermination();
 * }
 * }</pre>
 */
public final class NameserverServer implements AutoCloseable {
  private static final long SELF_TTL_SECONDS = 300;
  private final Nameserver nameserver;
  private final DaemonServer server;

  private NameserverServer(Nameserver nameserver, DaemonServer server) {
    this.nameserver = nameserver;
    this.server = server;
  }

  public static NameserverServer start(NameserverProperties props, ServerBuilder<?> builder)
      throws IOException {
    Nameserver ns = Nameserver.open(Path.of(props.dataDir), Clock.systemUTC());
    DaemonServer server = new DaemonServer("nameserver", builder,
        List.of(new NameserverService(ns)));
    server.closeAfter(ns);
    // Closed before the state: a scrape never reads a closed one.
    server.closeAfter(NameserverMetrics.gauges(server.name(), ns));
    try {
      server.start();
    } catch (IOException e) {
      server.close(); // closes the gauges and the state
      throw e;
    }
    String host = props.host.isEmpty() ? Addresses.localHostName() : props.host;
    Registration self = Registration.newBuilder()
        .setName("nameserver@" + host)
        .setKind("nameserver")
        .setAddress(host + ":" + server.getPort())
        .putAttributes("host", host)
        .build();
    ns.register(self, SELF_TTL_SECONDS);
    // The nameserver is its own registry: it renews its record itself, well within the TTL.
    ScheduledExecutorService renew = Executors.newSingleThreadScheduledExecutor(
        new NamedThreadFactory("nameserver-self"));
    renew.scheduleWithFixedDelay(() -> ns.register(self, SELF_TTL_SECONDS),
        SELF_TTL_SECONDS / 3, SELF_TTL_SECONDS / 3, TimeUnit.SECONDS);
    server.closeAfter(renew::shutdownNow);
    return new NameserverServer(ns, server);
  }

  public int getPort() {
    return server.getPort();
  }

  public Nameserver nameserver() {
    return nameserver;
  }

  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  @Override
  public void close() {
    server.close();
  }
}
