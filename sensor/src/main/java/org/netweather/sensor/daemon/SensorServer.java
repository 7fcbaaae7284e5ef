package org.netweather.sensor.daemon;

import io.grpc.ManagedChannel;
import io.grpc.ServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.api.v1.Activity;
import org.netweather.api.v1.Registration;
import org.netweather.clients.NetWeatherClient;
import org.netweather.model.SeriesName;
import org.netweather.runtime.Addresses;
import org.netweather.runtime.DaemonServer;
import org.netweather.runtime.NamedThreadFactory;
import org.netweather.runtime.Registrar;
import org.netweather.sensor.Ticker;
import org.netweather.sensor.clique.CliqueOptions;
import org.netweather.sensor.clique.CliqueRegistry;
import org.netweather.sensor.clique.CliqueScheduler;
import org.netweather.sensor.probe.ProbeServer;
import org.netweather.sensor.probe.ProbeServerOptions;
import org.netweather.sensor.spool.Spool;
import org.netweather.sensor.spool.SpoolOptions;

/**
 * The sensor daemon for one host: host skills on periods, clique membership from the
 * nameserver with probes when this host holds the token, a probe listener for peers, a spool
 * delivered to memory-hosts, and the control service. Registers as kind {@code sensor} with
 * attributes {@code host}, {@code probe} and {@code cluster}.
 *
 * <pre>{@code
 * try (SensorServer s = SensorServer.start(props, ServerBuilder.forPort(props.port), channels)) {
 *   s.awaitTermination();
 * }
 * }</pre>
 */
public final class SensorServer implements AutoCloseable {
  private final DaemonServer server;
  private final Spool spool;
  private final Delivery delivery;
  private final int probePort;

  private SensorServer(DaemonServer server, Spool spool, Delivery delivery, int probePort) {
    this.server = server;
    this.spool = spool;
    this.delivery = delivery;
    this.probePort = probePort;
  }

  /**
   * Starts the sensor: its gRPC services, probe server, skills and delivery.
   *
   * @param channels opens channels to the nameserver, memory-hosts and peer sensors; they are
   *     owned and closed by the server
   */
  public static SensorServer start(SensorProperties props, ServerBuilder<?> builder,
      Function<String, ManagedChannel> channels) throws IOException {
    String host = props.host.isEmpty() ? Addresses.localHostName() : props.host;
    String problem = SeriesName.nameProblem("host", host);
    if (problem != null) {
      throw new IllegalArgumentException(problem + " (use --host NAME)");
    }
    String advertise = props.advertise.isEmpty() ? host : props.advertise;
    Spool spool = Spool.open(Path.of(props.dataDir, "spool"),
        SpoolOptions.of(props.spoolBytes));
    // Timers, delivery, clique polling: short tasks. Host skills get their own thread.
    ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2,
        new NamedThreadFactory("sensor-sched"));
    ScheduledExecutorService skillRunner = Executors.newSingleThreadScheduledExecutor(
        new NamedThreadFactory("sensor-skills"));
    ScheduledExecutorService cliqueThread = Executors.newSingleThreadScheduledExecutor(
        new NamedThreadFactory("sensor-clique"));
    ManagedChannel ns = channels.apply(props.nameserver);
    NetWeatherClient client = new NetWeatherClient(ns, Duration.ofSeconds(10), channels);
    Delivery delivery = new Delivery(spool, client, scheduler);
    SkillSet skills = SkillSet.create();
    String daemon = "sensor";
    SensorMetrics metrics = SensorMetrics.forDaemon(daemon, skills.all().keySet());
    Recorder recorder = new Recorder(spool, delivery::nudge, System::currentTimeMillis, metrics);
    PeerDirectory peers = new PeerDirectory(ns);
    ProbeServer probe = new ProbeServer(skills.group(), ProbeServerOptions.defaults(
        props.bind.isEmpty() ? new InetSocketAddress(props.probePort)
            : new InetSocketAddress(props.bind, props.probePort)),
        props.probeFromAnyone ? a -> true : peers::isSensorAddress, Ticker.system());
    GrpcTokenSender tokens = new GrpcTokenSender(peers, channels);
    CliqueRegistry cliques = new CliqueRegistry(host, CliqueScheduler.of(cliqueThread), tokens,
        new ProbeExperiments(host, skills.cliqueSkills(), peers, recorder, metrics),
        System::currentTimeMillis, CliqueOptions.defaults());
    Activities activities = new Activities(host, skills.all(), peers, recorder, skillRunner,
        metrics);
    DaemonServer server = new DaemonServer(daemon, builder, List.of(
        new SensorControlService(host, activities, cliques, spool, skills.all(), peers,
            () -> advertise + ":" + probe.port())));
    // Closed in reverse: stop activities and cliques first, then delivery, then the rest.
    server.closeAfter(spool);
    // Closed before the spool: a scrape never reads a closed one.
    server.closeAfter(SensorMetrics.gauges(daemon, spool));
    server.closeAfter(skills);
    server.closeAfter(() -> {
      scheduler.shutdownNow();
      skillRunner.shutdownNow();
      cliqueThread.shutdownNow();
      scheduler.awaitTermination(5, TimeUnit.SECONDS);
    });
    server.closeAfter(ns::shutdownNow);
    server.closeAfter(client);
    server.closeAfter(tokens);
    server.closeAfter(probe);
    server.closeAfter(delivery);
    server.closeAfter(cliques);
    server.closeAfter(activities);
    try {
      probe.start();
      server.start();
    } catch (IOException e) {
      server.close();
      throw e;
    }
    Registration.Builder reg = Registration.newBuilder()
        .setName("sensor@" + host)
        .setKind("sensor")
        .setAddress(advertise + ":" + server.getPort())
        .putAttributes("host", host)
        .putAttributes("probe", advertise + ":" + probe.port());
    if (!props.cluster.isEmpty()) {
      reg.putAttributes("cluster", props.cluster);
    }
    Registrar registrar = new Registrar(ns, reg.build(), Duration.ofSeconds(props.ttlSeconds),
        scheduler, true);
    server.closeAfter(registrar);
    registrar.start();
    delivery.start(1_000);
    activities.start(Activity.newBuilder().setName("cpu").setSkill("cpu.availability")
        .setPeriodSeconds(props.cpuPeriodSeconds).build());
    activities.start(Activity.newBuilder().setName("memory").setSkill("memory.free")
        .setPeriodSeconds(props.memoryPeriodSeconds).build());
    CliqueWatcher watcher = new CliqueWatcher(host, ns, cliques, peers);
    scheduler.scheduleWithFixedDelay(watcher::poll, 0, props.cliquePollMs,
        TimeUnit.MILLISECONDS);
    return new SensorServer(server, spool, delivery, probe.port());
  }

  public int getPort() {
    return server.getPort();
  }

  public int probePort() {
    return probePort;
  }

  /** Measurements spooled and not yet acknowledged by a memory-host. */
  public long spooled() {
    return spool.pending();
  }

  public long delivered() {
    return delivery.delivered();
  }

  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  @Override
  public void close() {
    server.close();
  }
}
