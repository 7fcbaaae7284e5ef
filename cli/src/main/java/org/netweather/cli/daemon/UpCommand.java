package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.netweather.cli.web.WebServer;
import org.netweather.client.NetWeatherClient;
import org.netweather.forecaster.ForecasterProperties;
import org.netweather.forecaster.ForecasterServer;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;
import org.netweather.runtime.Channels;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.logging.LogSettings;
import org.netweather.runtime.logging.Logs;
import org.netweather.runtime.tls.ConnectionLimits;
import org.netweather.runtime.tls.DaemonTransport;
import org.netweather.sensor.daemon.SensorProperties;
import org.netweather.sensor.daemon.SensorServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;

/**
 * {@code nws up}: every NetWeather daemon in one process, and the dashboard, for a laptop, a first
 * look or a site's core host. It listens on loopback only unless {@code listenAll} is set; every
 * daemon registers at the address {@link AdvertisedAddress} chooses. Daemons start in dependency
 * order and stop in reverse, each stop logged.
 */
@Command(
    name = "up",
    description = "Run all of NetWeather in one process on this machine.",
    modelTransformer = ConfigFlags.class)
public final class UpCommand extends ConfiguredCommand {
  private static final Logger log = LoggerFactory.getLogger(UpCommand.class);
  private final StopOrder running = new StopOrder(log, System::nanoTime);

  public UpCommand() {
    super(UpProperties.SCHEMA);
  }

  /** {@code up}'s own settings, then each daemon's, as {@link #call} would run them. */
  @Override
  public List<ConfigValues> configuration() {
    return plan().all();
  }

  private UpPlan plan() {
    return UpPlan.read(config, b -> ConfigFlags.apply(spec, UpProperties.SCHEMA, b));
  }

  @Override
  public Integer call() throws Exception {
    UpPlan plan = plan();
    plan.all(); // every section checked before anything starts
    Logs.apply(LogSettings.from(plan.up()));
    AdvertisedAddress advertised = plan.advertised();
    advertised.warnings().forEach(log::warn);
    Runtime.getRuntime().addShutdownHook(new Thread(running::stopAll, "up-shutdown"));
    UpBanner banner = new UpBanner(plan);
    try {
      // One endpoint for the whole process: every daemon's metrics carry a daemon label.
      MetricsPort metrics = MetricsPort.open("--metrics-port", bind(plan), plan.metricsPort());
      running.add("metrics", metrics::close);
      banner.metrics(metrics.port());

      NameserverProperties nsp = plan.nameserver();
      NameserverServer ns = NameserverServer.start(nsp, server(plan, nsp.port));
      running.add("nameserver", ns);
      banner.daemon("nameserver", ns.getPort());

      MemoryHostProperties mp = plan.memoryHost(ns.getPort());
      MemoryHostServer memory = MemoryHostServer.start(mp, server(plan, mp.port));
      running.add("memory-host", memory);
      banner.daemon("memory-host", memory.getPort());

      ForecasterProperties fp = plan.forecaster(ns.getPort());
      ForecasterServer forecaster =
          ForecasterServer.start(fp, server(plan, fp.port), Channels::plaintext);
      running.add("forecaster", forecaster);
      banner.daemon("forecaster", forecaster.getPort());

      ProxyProperties pp = plan.proxy(ns.getPort());
      ProxyServer proxy = ProxyServer.start(pp, server(plan, pp.port), Channels::plaintext);
      running.add("proxy", proxy);
      banner.daemon("proxy", proxy.getPort());

      SensorProperties sp = plan.sensor(ns.getPort());
      SensorServer sensor = SensorServer.start(sp, server(plan, sp.port), Channels::plaintext);
      running.add("sensor", sensor);
      banner.sensor(sensor.getPort(), sensor.probePort());

      if (plan.webPort() >= 0) {
        banner.web(startWeb(plan, ns.getPort()));
      }
    } catch (Exception e) {
      running.stopAll();
      throw e;
    }
    System.err.print(banner.render(advertised));
    System.err.flush();
    new CountDownLatch(1).await();
    return 0;
  }

  /** The dashboard, reading the site through this process's nameserver; returns its port. */
  private int startWeb(UpPlan plan, int nameserverPort) {
    NetWeatherClient client =
        NetWeatherClient.forAddress(AdvertisedAddress.LOOPBACK_NAME + ":" + nameserverPort)
            .deadline(Duration.ofSeconds(10))
            .build();
    running.add("dashboard's client", client);
    String bind = plan.listenAll() ? "0.0.0.0" : InetAddress.getLoopbackAddress().getHostAddress();
    WebServer web;
    try {
      web = WebServer.start(client, bind, plan.webPort(), Clock.systemUTC());
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "the dashboard cannot listen on port "
              + plan.webPort()
              + " (in use by another nws web or nws up?); --web-port picks another, --no-web"
              + " leaves it out: "
              + e.getMessage(),
          e);
    }
    running.add("dashboard", web);
    return web.port();
  }

  /** Loopback only, unless the site asked to listen on every interface (empty: every one). */
  private static String bind(UpPlan plan) {
    return plan.listenAll() ? "" : InetAddress.getLoopbackAddress().getHostAddress();
  }

  /** A server on loopback only, unless the site asked to listen on every interface. */
  private static NettyServerBuilder server(UpPlan plan, int port) {
    return DaemonTransport.bounded(
        plan.listenAll()
            ? NettyServerBuilder.forPort(port)
            : NettyServerBuilder.forAddress(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port)),
        ConnectionLimits.defaults());
  }
}
