package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;
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
import org.netweather.sensor.daemon.SensorProperties;
import org.netweather.sensor.daemon.SensorServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nws up}: every NetWeather daemon in one process on loopback, for a laptop or a first
 * look. Daemons start in dependency order and stop in reverse.
 */
@Command(name = "up", description = "Run all of NetWeather in one process on this machine.")
public final class UpCommand implements Callable<Integer> {
  @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "nws-data",
      description = "Where every daemon keeps its data (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(names = "--host", defaultValue = "localhost",
      description = "Host name the daemons advertise (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--nameserver-port", defaultValue = "8090")
  int nameserverPort;

  @Option(names = "--memory-port", defaultValue = "8050")
  int memoryPort;

  @Option(names = "--forecaster-port", defaultValue = "8070")
  int forecasterPort;

  @Option(names = "--proxy-port", defaultValue = "8080")
  int proxyPort;

  @Option(names = "--sensor-port", defaultValue = "8060")
  int sensorPort;

  @Option(names = "--probe-port", defaultValue = "8061")
  int probePort;

  @Option(names = "--metrics-port", defaultValue = "8099",
      description = "Prometheus metrics of every daemon over HTTP (default: ${DEFAULT-VALUE}; "
          + "0 any, -1 none).")
  int metricsPort;

  @Option(names = "--cluster", defaultValue = "local",
      description = "Cluster name of this machine (default: ${DEFAULT-VALUE}).")
  String cluster;

  private final Deque<AutoCloseable> running = new ArrayDeque<>();

  @Override
  public Integer call() throws Exception {
    Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "up-shutdown"));
    try {
      // One endpoint for the whole process: every daemon's metrics carry a daemon label.
      MetricsPort metrics = MetricsPort.open("--metrics-port", metricsPort);
      running.push(metrics::close);

      NameserverProperties nsp = new NameserverProperties();
      nsp.port = nameserverPort;
      nsp.dataDir = dataDir.resolve("nameserver").toString();
      nsp.host = host;
      NameserverServer ns = NameserverServer.start(nsp, NettyServerBuilder.forPort(nsp.port));
      running.push(ns);

      MemoryHostProperties mp = new MemoryHostProperties();
      mp.port = memoryPort;
      mp.dataDir = dataDir.resolve("memory").toString();
      mp.host = host;
      mp.nameserver = host + ":" + ns.getPort();
      MemoryHostServer memory = MemoryHostServer.start(mp, NettyServerBuilder.forPort(mp.port));
      running.push(memory);

      ForecasterProperties fp = new ForecasterProperties();
      fp.port = forecasterPort;
      fp.host = host;
      fp.nameserver = host + ":" + ns.getPort();
      ForecasterServer forecaster = ForecasterServer.start(fp,
          NettyServerBuilder.forPort(fp.port), Channels::plaintext);
      running.push(forecaster);

      ProxyProperties pp = new ProxyProperties();
      pp.port = proxyPort;
      pp.host = host;
      pp.nameserver = host + ":" + ns.getPort();
      pp.cluster = cluster;
      pp.hosts = List.of(host);
      ProxyServer proxy = ProxyServer.start(pp, NettyServerBuilder.forPort(pp.port),
          Channels::plaintext);
      running.push(proxy);

      SensorProperties sp = new SensorProperties();
      sp.host = host;
      sp.port = sensorPort;
      sp.probePort = probePort;
      sp.nameserver = host + ":" + ns.getPort();
      sp.dataDir = dataDir.resolve("sensor").toString();
      sp.cluster = cluster;
      SensorServer sensor = SensorServer.start(sp, NettyServerBuilder.forPort(sp.port),
          Channels::plaintext);
      running.push(sensor);

      System.err.println("NetWeather is up: nameserver " + host + ":" + ns.getPort()
          + ", memory-host " + host + ":" + memory.getPort() + ", forecaster " + host + ":"
          + forecaster.getPort() + ", proxy " + host + ":" + proxy.getPort() + " (cluster "
          + cluster + "), sensor " + host + ":" + sensor.getPort() + ", data in " + dataDir
          + metrics.banner() + ". Ctrl-C stops it.");
    } catch (Exception e) {
      stopAll();
      throw e;
    }
    new CountDownLatch(1).await();
    return 0;
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
