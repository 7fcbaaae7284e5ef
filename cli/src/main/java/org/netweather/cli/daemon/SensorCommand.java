package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.netweather.runtime.Channels;
import org.netweather.runtime.ConfigLoader;
import org.netweather.sensor.daemon.SensorProperties;
import org.netweather.sensor.daemon.SensorServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nws sensor}: runs this host's sensor in the foreground. */
@Command(name = "sensor", description = "Run this host's sensor in the foreground.")
public final class SensorCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration file.")
  Path config;

  @Option(names = "--host", description = "This host's name in series (default: host name).")
  String host;

  @Option(names = "--advertise", paramLabel = "ADDR",
      description = "Address others reach this sensor at (default: --host).")
  String advertise;

  @Option(names = "--bind", paramLabel = "ADDR",
      description = "Address to listen on (default: all).")
  String bind;

  @Option(names = "--nameserver", paramLabel = "HOST:PORT",
      description = "Nameserver (default localhost:8090).")
  String nameserver;

  @Option(names = "--port", description = "Control service port (default 8060).")
  Integer port;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "Prometheus metrics over HTTP (default 8069; 0 any, -1 none).")
  Integer metricsPort;

  @Option(names = "--probe-port", description = "Probe listener port (default 8061).")
  Integer probePort;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Spool directory (default nws-data/sensor).")
  String dataDir;

  @Option(names = "--cluster", description = "Cluster this host belongs to.")
  String cluster;

  @Override
  public Integer call() throws Exception {
    SensorProperties p = ConfigLoader.load(config, SensorProperties.class);
    if (host != null) {
      p.host = host;
    }
    if (advertise != null) {
      p.advertise = advertise;
    }
    if (bind != null) {
      p.bind = bind;
    }
    if (nameserver != null) {
      p.nameserver = nameserver;
    }
    if (port != null) {
      p.port = port;
    }
    if (metricsPort != null) {
      p.metricsPort = metricsPort;
    }
    if (probePort != null) {
      p.probePort = probePort;
    }
    if (dataDir != null) {
      p.dataDir = dataDir;
    }
    if (cluster != null) {
      p.cluster = cluster;
    }
    NettyServerBuilder builder = p.bind.isEmpty() ? NettyServerBuilder.forPort(p.port)
        : NettyServerBuilder.forAddress(new InetSocketAddress(p.bind, p.port));
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.bind, p.metricsPort);
    SensorServer s = metrics.closeIfFails(
        () -> SensorServer.start(p, builder, Channels::plaintext));
    return Foreground.run("sensor", s::awaitTermination, s::close, metrics,
        "sensor listening on port " + s.getPort() + ", probes on port "
        + s.probePort() + ", spool in " + p.dataDir);
  }
}
