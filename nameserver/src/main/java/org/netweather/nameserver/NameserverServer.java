package org.netweather.nameserver;

import io.grpc.ManagedChannel;
import io.grpc.ServerBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.api.v1.Registration;
import org.netweather.registry.Registry;
import org.netweather.registry.zookeeper.ZooKeeperRegistry;
import org.netweather.runtime.Channels;
import org.netweather.runtime.Daemon;

/**
 * The nameserver daemon: opens its state, serves it over gRPC and registers itself (with a lease it
 * renews on its own, since it is its own registry).
 *
 * <pre>{@code
 * try (NameserverServer ns = NameserverServer.start(props, ServerBuilder.forPort(props.port))) {
 *   ns.awaitTermination();
 * }
 * }</pre>
 */
public final class NameserverServer implements AutoCloseable {
  private static final long SELF_TTL_SECONDS = 300;
  private static final long SWEEP_SECONDS = 10;

  /** How long a registered address has to prove its identity (a TLS handshake and one call). */
  private static final Duration ADDRESS_CHECK_TIMEOUT = Duration.ofSeconds(5);

  private final Nameserver nameserver;
  private final Daemon daemon;

  private NameserverServer(Nameserver nameserver, Daemon daemon) {
    this.nameserver = nameserver;
    this.daemon = daemon;
  }

  public static NameserverServer start(NameserverProperties props, ServerBuilder<?> builder)
      throws IOException {
    return start(props, builder, Channels::plaintext);
  }

  /**
   * As {@link #start(NameserverProperties, ServerBuilder)}, opening channels with {@code channels}.
   */
  public static NameserverServer start(
      NameserverProperties props,
      ServerBuilder<?> builder,
      Function<String, ManagedChannel> channels)
      throws IOException {
    return Daemon.start(
        "nameserver",
        builder,
        channels,
        daemon -> {
          Nameserver ns =
              daemon.own(
                  Nameserver.open(
                      Path.of(props.dataDir),
                      Clock.systemUTC(),
                      props.missingMax,
                      Duration.ofHours(props.missingHours)));
          // Closed before the state: a scrape never reads a closed one.
          daemon.own(NameserverMetrics.gauges(daemon.name(), ns));
          ScheduledExecutorService renew = daemon.scheduler("nameserver-self", 1);
          daemon.serve(
              List.of(
                  new NameserverService(
                      ns, props, new AddressCheck(channels, ADDRESS_CHECK_TIMEOUT))));
          String host = Daemon.host(props.host);
          Registration self =
              daemon
                  .registration("nameserver", host, Daemon.advertise(props.advertise, host))
                  .build();
          if (!props.registry.isLocal()) {
            // Shared with the site's other nameservers: opened before the mirror, closed after.
            Registry shared =
                daemon.own(ZooKeeperRegistry.open(props.registry, props.registryTls()));
            shared.join("nameservers", self.getName(), Map.of("address", self.getAddress()));
            ns.mirrorTo(daemon.own(new RegistryMirror(shared)));
          }
          ns.register(self, SELF_TTL_SECONDS);
          // The nameserver is its own registry: it renews its record itself, well within the TTL.
          renew.scheduleWithFixedDelay(
              () -> ns.register(self, SELF_TTL_SECONDS),
              SELF_TTL_SECONDS / 3,
              SELF_TTL_SECONDS / 3,
              TimeUnit.SECONDS);
          // Expired leases leave the registrations for the missing list, which bounds them.
          // A sweep far later than this period is how the nameserver notices its own stall.
          ns.sweepsEvery(Duration.ofSeconds(SWEEP_SECONDS));
          renew.scheduleWithFixedDelay(ns::sweep, SWEEP_SECONDS, SWEEP_SECONDS, TimeUnit.SECONDS);
          return new NameserverServer(ns, daemon);
        });
  }

  public int getPort() {
    return daemon.port();
  }

  public Nameserver nameserver() {
    return nameserver;
  }

  public void awaitTermination() throws InterruptedException {
    daemon.awaitTermination();
  }

  @Override
  public void close() {
    daemon.close();
  }
}
