package org.netweather.sensor.daemon;

import io.grpc.ManagedChannel;
import io.grpc.ServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.netweather.api.v1.Activity;
import org.netweather.api.v1.Registration;
import org.netweather.client.NetWeatherClient;
import org.netweather.model.SeriesName;
import org.netweather.runtime.Daemon;
import org.netweather.runtime.Registrar;
import org.netweather.sensor.Ticker;
import org.netweather.sensor.clique.CliqueOptions;
import org.netweather.sensor.clique.CliqueRegistry;
import org.netweather.sensor.clique.CliqueScheduler;
import org.netweather.sensor.probe.ProbeKey;
import org.netweather.sensor.probe.ProbeServer;
import org.netweather.sensor.probe.ProbeServerOptions;
import org.netweather.sensor.spool.Spool;
import org.netweather.sensor.spool.SpoolOptions;

/**
 * The sensor daemon for one host: host skills on periods, clique membership from the nameserver
 * with probes when this host holds the token, a probe listener for peers, a spool delivered to
 * memory-hosts, and the control service. Registers as kind {@code sensor} with attributes {@code
 * host}, {@code probe} and {@code cluster}.
 *
 * <pre>{@code
 * try (SensorServer s = SensorServer.start(props, ServerBuilder.forPort(props.port), channels)) {
 *   s.awaitTermination();
 * }
 * }</pre>
 */
public final class SensorServer implements AutoCloseable {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SensorServer.class);
  private final Daemon daemon;
  private final Spool spool;
  private final Delivery delivery;
  private final int probePort;

  private SensorServer(Daemon daemon, Spool spool, Delivery delivery, int probePort) {
    this.daemon = daemon;
    this.spool = spool;
    this.delivery = delivery;
    this.probePort = probePort;
  }

  /**
   * Starts the sensor: its gRPC services, probe server, skills and delivery.
   *
   * @param channels opens channels to the nameserver, memory-hosts and peer sensors; they are owned
   *     and closed by the server
   */
  public static SensorServer start(
      SensorProperties props, ServerBuilder<?> builder, Function<String, ManagedChannel> channels)
      throws IOException {
    return start(props, builder, channels, System::currentTimeMillis);
  }

  /**
   * As {@link #start(SensorProperties, ServerBuilder, Function)}, with the host's clock (Unix epoch
   * milliseconds) that measurements are stamped by, for tests of a host whose clock is wrong.
   */
  public static SensorServer start(
      SensorProperties props,
      ServerBuilder<?> builder,
      Function<String, ManagedChannel> channels,
      LongSupplier clockMs)
      throws IOException {
    String host = Daemon.host(props.host);
    String problem = SeriesName.nameProblem("host", host);
    if (problem != null) {
      throw new IllegalArgumentException(problem + " (use --host NAME)");
    }
    String advertise = props.advertise.isEmpty() ? host : props.advertise;
    warnIfOnlyLoopback(advertise);
    return Daemon.start(
        "sensor",
        builder,
        channels,
        daemon -> {
          Spool spool =
              daemon.own(
                  Spool.open(Path.of(props.dataDir, "spool"), SpoolOptions.of(props.spoolBytes)));
          ProbeKey probeKey =
              props.probeKeyFile.isEmpty()
                  ? null
                  : ProbeKey.fromFile(Path.of(props.probeKeyFile), System::currentTimeMillis);
          SkillSet skills = SkillSet.create(probeKey);
          SensorMetrics metrics = SensorMetrics.forDaemon(daemon.name(), skills.all().keySet());
          // Closed before the spool: a scrape never reads a closed one.
          daemon.own(SensorMetrics.gauges(daemon.name(), spool));
          SiteClock site = new SiteClock(clockMs);
          daemon.own(SensorMetrics.clockGauge(daemon.name(), site));
          daemon.own(skills);
          // Timers, delivery, clique polling: short tasks. Host skills get their own thread.
          // Stopped after everything that schedules on them (closing is in reverse).
          ScheduledExecutorService scheduler = daemon.scheduler("sensor-sched", 2);
          ScheduledExecutorService skillRunner = daemon.scheduler("sensor-skills", 1);
          ScheduledExecutorService cliqueThread = daemon.scheduler("sensor-clique", 1);
          ManagedChannel ns = daemon.channel(props.nameserver);
          // One try per call: the spool already retries every measurement until it is acknowledged.
          NetWeatherClient client =
              daemon.own(
                  NetWeatherClient.forChannel(ns)
                      .deadline(Duration.ofSeconds(10))
                      .maxAttempts(1)
                      .channels(channels)
                      .build());
          PeerDirectory peers = new PeerDirectory(ns);
          GrpcTokenSender tokens = daemon.own(new GrpcTokenSender(peers, channels));
          ProbeServer probe =
              daemon.own(
                  new ProbeServer(
                      skills.group(),
                      ProbeServerOptions.defaults(
                              props.bind.isEmpty()
                                  ? new InetSocketAddress(props.probePort)
                                  : new InetSocketAddress(props.bind, props.probePort))
                          .withKey(probeKey),
                      props.probeFromAnyone ? a -> true : peers::isSensorAddress,
                      Ticker.system()));
          Delivery delivery =
              daemon.own(
                  new Delivery(
                      spool,
                      client,
                      scheduler,
                      clockMs,
                      props.tls() == null,
                      site,
                      metrics::refused));
          Recorder recorder = new Recorder(spool, delivery::nudge, site::nowMs, metrics);
          CliqueRegistry cliques =
              daemon.own(
                  new CliqueRegistry(
                      host,
                      CliqueScheduler.of(cliqueThread),
                      tokens,
                      new ProbeExperiments(host, skills.cliqueSkills(), peers, recorder, metrics),
                      System::currentTimeMillis,
                      CliqueOptions.defaults()));
          Activities activities =
              daemon.own(
                  new Activities(
                      host,
                      skills.all(),
                      peers,
                      recorder,
                      skillRunner,
                      metrics,
                      props.minNetworkActivitySeconds));
          probe.start();
          daemon.serve(
              List.of(
                  new SensorControlService(
                      host,
                      activities,
                      cliques,
                      spool,
                      skills.all(),
                      peers,
                      new AdHocProbeLimiter(props.adHocProbesPerMinute, System::nanoTime),
                      () -> advertise + ":" + probe.port())));
          Registration.Builder reg =
              daemon
                  .registration("sensor", host, advertise)
                  .putAttributes("probe", advertise + ":" + probe.port());
          if (!props.cluster.isEmpty()) {
            reg.putAttributes("cluster", props.cluster);
          }
          Registration base = reg.build();
          Registrar registrar =
              daemon.own(
                  new Registrar(ns, base, Duration.ofSeconds(props.ttlSeconds), scheduler, true));
          // The registration says when this sensor stamps with the site's time, not its own.
          site.listener(
              (correcting, offset) -> registrar.update(withClock(base, correcting, offset)));
          registrar.serverTime((t, rtt) -> site.heard(t, rtt, "the nameserver", false)).start();
          delivery.start(props.deliveryIntervalMs);
          activities.start(
              Activity.newBuilder()
                  .setName("cpu")
                  .setSkill("cpu.availability")
                  .setPeriodSeconds(props.cpuPeriodSeconds)
                  .build());
          activities.start(
              Activity.newBuilder()
                  .setName("memory")
                  .setSkill("memory.free")
                  .setPeriodSeconds(props.memoryPeriodSeconds)
                  .build());
          daemon
              .own(new CliqueWatcher(host, ns, cliques, peers, scheduler, props.cliquePollMs))
              .start();
          return new SensorServer(daemon, spool, delivery, probe.port());
        });
  }

  /**
   * {@code base} with, while stamps are corrected, the attributes {@code clock=corrected} and
   * {@code clock_offset_ms} (the site's clock minus this host's).
   */
  static Registration withClock(Registration base, boolean correcting, long offsetMs) {
    if (!correcting) {
      return base;
    }
    return base.toBuilder()
        .putAttributes("clock", "corrected")
        .putAttributes("clock_offset_ms", Long.toString(offsetMs))
        .build();
  }

  /**
   * Others dial the advertised name: one that resolves only to loopback (a host name mapped to
   * 127.0.1.1, as many distributions do) works on this machine alone, so say so at start.
   */
  private static void warnIfOnlyLoopback(String advertise) {
    try {
      java.net.InetAddress[] all = java.net.InetAddress.getAllByName(advertise);
      if (java.util.Arrays.stream(all).allMatch(java.net.InetAddress::isLoopbackAddress)
          && !advertise.equals("localhost")
          && !advertise.startsWith("127.")) {
        log.warn(
            "{} resolves only to loopback ({}): other hosts cannot reach this sensor; give"
                + " --advertise ADDRESS (an address they reach) and --bind ADDRESS",
            advertise,
            all[0].getHostAddress());
      }
    } catch (java.net.UnknownHostException e) {
      log.warn(
          "{} does not resolve here; others must resolve it to reach this sensor, or give"
              + " --advertise ADDRESS",
          advertise);
    }
  }

  public int getPort() {
    return daemon.port();
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
    daemon.awaitTermination();
  }

  @Override
  public void close() {
    daemon.close();
  }
}
