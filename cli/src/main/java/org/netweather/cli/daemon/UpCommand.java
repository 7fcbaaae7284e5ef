package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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
import picocli.CommandLine.Command;

/**
 * {@code nws up}: every NetWeather daemon in one process on loopback, for a laptop or a first look.
 * It listens on loopback only unless {@code listenAll} is set. Daemons start in dependency order
 * and stop in reverse.
 */
@Command(
    name = "up",
    description = "Run all of NetWeather in one process on this machine.",
    modelTransformer = ConfigFlags.class)
public final class UpCommand extends ConfiguredCommand {
  private final Deque<AutoCloseable> running = new ArrayDeque<>();

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
    String host = plan.host();
    Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "up-shutdown"));
    try {
      // One endpoint for the whole process: every daemon's metrics carry a daemon label.
      MetricsPort metrics =
          MetricsPort.open(
              "--metrics-port",
              plan.listenAll() ? "" : InetAddress.getLoopbackAddress().getHostAddress(),
              plan.metricsPort());
      running.push(metrics::close);

      NameserverProperties nsp = plan.nameserver();
      NameserverServer ns = NameserverServer.start(nsp, server(plan, nsp.port));
      running.push(ns);

      MemoryHostProperties mp = plan.memoryHost(ns.getPort());
      MemoryHostServer memory = MemoryHostServer.start(mp, server(plan, mp.port));
      running.push(memory);

      ForecasterProperties fp = plan.forecaster(ns.getPort());
      ForecasterServer forecaster =
          ForecasterServer.start(fp, server(plan, fp.port), Channels::plaintext);
      running.push(forecaster);

      ProxyProperties pp = plan.proxy(ns.getPort());
      ProxyServer proxy = ProxyServer.start(pp, server(plan, pp.port), Channels::plaintext);
      running.push(proxy);

      SensorProperties sp = plan.sensor(ns.getPort());
      SensorServer sensor = SensorServer.start(sp, server(plan, sp.port), Channels::plaintext);
      running.push(sensor);

      System.err.println(
          "NetWeather is up: nameserver "
              + host
              + ":"
              + ns.getPort()
              + ", memory-host "
              + host
              + ":"
              + memory.getPort()
              + ", forecaster "
              + host
              + ":"
              + forecaster.getPort()
              + ", proxy "
              + host
              + ":"
              + proxy.getPort()
              + " (cluster "
              + plan.cluster()
              + "), sensor "
              + host
              + ":"
              + sensor.getPort()
              + ", data in "
              + plan.dataDir()
              + metrics.banner()
              + ". Ctrl-C stops it.");
    } catch (Exception e) {
      stopAll();
      throw e;
    }
    new CountDownLatch(1).await();
    return 0;
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

  private synchronized void stopAll() {
    while (!running.isEmpty()) {
      try {
        running.pop().close();
      } catch (Exception e) {
        System.err.println("*** stopping failed: " + e);
      }
    }
  }
}
