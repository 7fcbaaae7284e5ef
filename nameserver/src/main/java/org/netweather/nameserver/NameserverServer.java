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
import org.netweather.nameserver.placement.Placements;
import org.netweather.nameserver.placement.ShardPlacement;
import org.netweather.registry.Registry;
import org.netweather.registry.zookeeper.ZooKeeperRegistry;
import org.netweather.runtime.Channels;
import org.netweather.runtime.Daemon;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
  private static final Logger log = LoggerFactory.getLogger(NameserverServer.class);
  private static final long SELF_TTL_SECONDS = 300;
  private static final long SWEEP_SECONDS = 10;

  /** How often the placement is checked for shards to place or memory-hosts gone too long. */
  private static final long PLACEMENT_SECONDS = 10;

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
          NameserverService service =
              new NameserverService(ns, props, new AddressCheck(channels, ADDRESS_CHECK_TIMEOUT));
          Registry shared = null;
          if (!props.registry.isLocal()) {
            // Shared with the site's other nameservers: opened before the sync, closed after.
            shared = daemon.own(ZooKeeperRegistry.open(props.registry, props.registryTls()));
            // Under ZooKeeper, AssignSeries answers the shard placement shared by every
            // nameserver instead of this one's series directory: set before the first call.
            service.placements(
                daemon
                    .own(
                        new Placements(
                            shared,
                            new ShardPlacement(Clock.systemUTC(), props.placementReplaceAfter)))
                    .follow(
                        daemon.scheduler("nameserver-placement", 1),
                        Duration.ofSeconds(PLACEMENT_SECONDS)));
          }
          daemon.serve(List.of(service));
          String host = Daemon.host(props.host);
          Registration self =
              daemon
                  .registration("nameserver", host, Daemon.advertise(props.advertise, host))
                  .build();
          if (shared != null) {
            // Joined first: a restarted nameserver is not taken for gone while it reads its lines.
            shared.join(SiteSync.GROUP, self.getName(), Map.of("address", self.getAddress()));
            daemon.own(SiteSync.start(shared, self.getName(), ns));
          }
          ns.register(self, SELF_TTL_SECONDS);
          // The nameserver is its own registry: it renews its record itself, well within the TTL.
          renew.scheduleWithFixedDelay(
              () -> renewSelf(ns, self),
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

  /** Registers the nameserver again; a failure (the shared registry out of reach) waits a turn. */
  private static void renewSelf(Nameserver ns, Registration self) {
    try {
      ns.register(self, SELF_TTL_SECONDS);
    } catch (RuntimeException e) {
      log.warn(
          "cannot renew the nameserver's own registration: {}; trying again later", e.toString());
    }
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
