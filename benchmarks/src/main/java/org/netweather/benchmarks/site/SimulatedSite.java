package org.netweather.benchmarks.site;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.WatchCliquesRequest;
import org.netweather.api.v1.WatchCliquesResponse;
import org.netweather.client.FailoverChannel;
import org.netweather.client.NetWeatherClient;
import org.netweather.runtime.NamedThreadFactory;
import org.netweather.runtime.Registrar;
import org.netweather.sensor.daemon.Delivery;
import org.netweather.sensor.spool.Spool;
import org.netweather.sensor.spool.SpoolOptions;

/**
 * The sensors of every simulated host, in this one process. Each host registers as a sensor does
 * (kind {@code sensor}, attributes {@code host}, {@code probe}, {@code cluster}) and keeps its
 * lease with the runtime's own {@link Registrar}; watches its cliques as the sensor's CliqueWatcher
 * does (a WatchCliques stream, and on each change one Search for the members' registrations); and
 * spools what {@link MeasurementGenerator} produces, delivered by the sensor's own {@link Delivery}
 * (batches of up to 1 000, a pass every {@code --delivery-ms}, the same back-off).
 *
 * <p>Hosts share spools, Deliveries and channels when there are more hosts than {@code --spools}
 * and {@code --connections}: a spool holds two descriptors, and a JVM here may hold 20 000, so 10
 * 000 hosts cannot each have one; and a real sensor's fsync per reading lands on its own disk, not
 * on the machine being measured, which is why the spools live on tmpfs by default.
 */
final class SimulatedSite implements AutoCloseable {
  /** Spool bound per host: over 3 hours of its measurements at real rate. */
  private static final long SPOOL_BYTES_PER_HOST = 1L << 20;

  private final SiteOptions options;
  private final SitePlan plan;
  private final ScheduledExecutorService scheduler;
  // Peer look-ups block on the nameserver; a real sensor makes them on its own threads, so they
  // must not hold up the deliveries of other simulated hosts.
  private final java.util.concurrent.ExecutorService lookups =
      Executors.newFixedThreadPool(4, new NamedThreadFactory("site-lookup"));
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final List<NetWeatherClient> clients = new ArrayList<>();
  private final Spool[] spools;
  private final Delivery[] deliveries;
  private final AtomicBoolean[] nudgeQueued;
  private final List<Registrar> registrars = new ArrayList<>();
  private final AtomicReferenceArray<String[]> peers;
  private final CountDownLatch firstPolls;

  SimulatedSite(
      SiteOptions options,
      SitePlan plan,
      String nameserver,
      AckLedger ledger,
      CallCounter nameserverCalls)
      throws IOException {
    this.options = options;
    this.plan = plan;
    this.scheduler =
        Executors.newScheduledThreadPool(options.threads(), new NamedThreadFactory("site"));
    for (int g = 0; g < options.connections(); g++) {
      // Every nameserver of the list, tried in order, as a sensor given several does.
      ManagedChannel ns =
          FailoverChannel.open(
              nameserver,
              a ->
                  NettyChannelBuilder.forTarget(a)
                      .usePlaintext()
                      .intercept(nameserverCalls)
                      .build());
      channels.add(ns);
      // As the sensor builds it: one try per call, the spool retries until acknowledged.
      clients.add(
          NetWeatherClient.forChannel(ns)
              .deadline(Duration.ofSeconds(10))
              .maxAttempts(1)
              .appendStreams(options.appendStreams())
              .channels(
                  a -> NettyChannelBuilder.forTarget(a).usePlaintext().intercept(ledger).build())
              .build());
    }
    spools = new Spool[options.spools()];
    deliveries = new Delivery[options.spools()];
    nudgeQueued = new AtomicBoolean[options.spools()];
    long perSpool =
        SPOOL_BYTES_PER_HOST * ((plan.hostCount() + options.spools() - 1) / options.spools());
    for (int s = 0; s < spools.length; s++) {
      spools[s] =
          Spool.open(
              options.spoolDir().resolve(String.format("s%05d", s)), SpoolOptions.of(perSpool));
      deliveries[s] = new Delivery(spools[s], clients.get(s % clients.size()), scheduler);
      nudgeQueued[s] = new AtomicBoolean();
    }
    peers = new AtomicReferenceArray<>(plan.hostCount());
    firstPolls = new CountDownLatch(plan.hostCount());
  }

  int spoolOf(int host) {
    return host % spools.length;
  }

  Spool spool(int s) {
    return spools[s];
  }

  int spoolCount() {
    return spools.length;
  }

  /** The peers this host's clique polls found, in token order; empty before the first poll. */
  String[] peersOf(int host) {
    String[] p = peers.get(host);
    return p == null ? new String[0] : p;
  }

  /** Asks for a delivery of spool {@code s}; at most one such request waits at a time. */
  void nudge(int s) {
    if (nudgeQueued[s].compareAndSet(false, true) && !scheduler.isShutdown()) {
      scheduler.execute(
          () -> {
            nudgeQueued[s].set(false);
            deliveries[s].nudge();
          });
    }
  }

  /** Registers every host, starts heartbeats, clique polls and deliveries. */
  void start(Random random) throws InterruptedException {
    CountDownLatch registered = new CountDownLatch(plan.hostCount());
    for (int h = 0; h < plan.hostCount(); h++) {
      String host = plan.host(h);
      Registration reg =
          Registration.newBuilder()
              .setName("sensor@" + host)
              .setKind("sensor")
              .setAddress("localhost:9")
              .putAttributes("host", host)
              .putAttributes("probe", "localhost:9")
              .putAttributes("cluster", plan.cluster(h))
              .build();
      Registrar r =
          new Registrar(
              channels.get(h % channels.size()),
              reg,
              Duration.ofSeconds(options.ttlSeconds()),
              scheduler,
              false);
      registrars.add(r);
      scheduler.execute(
          () -> {
            r.start();
            registered.countDown();
          });
    }
    registered.await();
    for (int h = 0; h < plan.hostCount(); h++) {
      int host = h;
      // Spread the opening of 10 000 streams as sensors starting over a few seconds would.
      scheduler.schedule(
          () -> watch(host), (long) (random.nextDouble() * 5_000), TimeUnit.MILLISECONDS);
    }
    // A spool stands for hosts/spools sensors: delivering that much more often gives the
    // memory-host the call rate (and batch size) of a site whose every sensor has its own.
    long period =
        Math.max(10, options.deliveryMs() * options.spools() / Math.max(1, plan.hostCount()));
    for (Delivery d : deliveries) {
      d.start(period);
    }
  }

  /** Waits until every host has heard of its cliques once. */
  boolean awaitFirstPolls(long timeoutMs) throws InterruptedException {
    return firstPolls.await(timeoutMs, TimeUnit.MILLISECONDS);
  }

  /**
   * Opens host {@code h}'s WatchCliques stream, as the sensor's CliqueWatcher does, and re-opens it
   * after a jittered second when it ends (a nameserver restart, a failed call).
   */
  private void watch(int h) {
    if (scheduler.isShutdown()) {
      return;
    }
    String self = plan.host(h);
    NameserverGrpc.newStub(channels.get(h % channels.size()))
        .watchCliques(
            WatchCliquesRequest.newBuilder().setHost(self).build(),
            new StreamObserver<WatchCliquesResponse>() {
              @Override
              public void onNext(WatchCliquesResponse r) {
                cliquesChanged(h, r.getCliquesList());
              }

              @Override
              public void onError(Throwable t) {
                resume();
              }

              @Override
              public void onCompleted() {
                resume();
              }

              private void resume() {
                if (!scheduler.isShutdown()) {
                  scheduler.schedule(
                      () -> watch(h),
                      500 + ThreadLocalRandom.current().nextLong(1_000),
                      TimeUnit.MILLISECONDS);
                }
              }
            });
  }

  /**
   * What the sensor does when its cliques change: look up the members' registrations (one scoped
   * Search) and probe them in token order.
   */
  private void cliquesChanged(int h, List<Clique> cliques) {
    String self = plan.host(h);
    List<String> found = new ArrayList<>();
    StringBuilder filter = new StringBuilder("(&(kind=sensor)(|");
    for (Clique c : cliques) {
      int at = c.getMembersList().indexOf(self);
      int n = c.getMembersCount();
      for (int k = 1; k < n; k++) {
        String peer = c.getMembers((at + k) % n);
        found.add(peer);
        filter.append("(host=").append(peer).append(')');
      }
    }
    String[] now = found.toArray(new String[0]);
    String[] before = peers.getAndSet(h, now);
    if (options.peerSearch() && !found.isEmpty() && !Arrays.equals(before, now)) {
      lookups.execute(
          () -> {
            try {
              NameserverGrpc.newBlockingStub(channels.get(h % channels.size()))
                  .withDeadlineAfter(3, TimeUnit.SECONDS)
                  .search(SearchRequest.newBuilder().setFilter(filter + "))").build());
            } catch (StatusRuntimeException e) {
              // the sensor keeps the peers it knew
            }
          });
    }
    if (before == null) {
      firstPolls.countDown();
    }
  }

  /** Measurements spooled and not yet acknowledged, over every spool. */
  long pending() {
    long n = 0;
    for (Spool s : spools) {
      n += s.pending();
    }
    return n;
  }

  /** Measurements the spools dropped because they were full. */
  long dropped() {
    long n = 0;
    for (Spool s : spools) {
      n += s.dropped();
    }
    return n;
  }

  ScheduledExecutorService scheduler() {
    return scheduler;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    registrars.forEach(Registrar::close);
    for (Delivery d : deliveries) {
      d.close();
    }
    scheduler.shutdownNow();
    lookups.shutdownNow();
    scheduler.awaitTermination(10, TimeUnit.SECONDS);
    clients.forEach(NetWeatherClient::close);
    channels.forEach(ManagedChannel::shutdownNow);
    for (Spool s : spools) {
      s.close();
    }
  }

  Path spoolDir() {
    return options.spoolDir();
  }
}
