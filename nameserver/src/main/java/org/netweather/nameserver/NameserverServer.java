package org.netweather.nameserver;

import io.grpc.ServerBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.netweather.api.v1.Registration;
import org.netweather.runtime.Addresses;
import org.netweather.runtime.DaemonServer;

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
    try {
      server.start();
    } catch (IOException e) {
      ns.close();
      throw e;
    }
    String host = props.host.isEmpty() ? Addresses.localHostName() : props.host;
    // Eternal in practice: the nameserver's own record lives as long as it does.
    ns.register(Registration.newBuilder()
        .setName("nameserver@" + host)
        .setKind("nameserver")
        .setAddress(host + ":" + server.getPort())
        .putAttributes("host", host)
        .build(), Nameserver.MAX_TTL_SECONDS);
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
