package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.runtime.ConfigLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nws memory}: runs a memory-host in the foreground. */
@Command(name = "memory", description = "Run a memory-host in the foreground.")
public final class MemoryCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration file.")
  Path config;

  @Option(names = "--port", description = "gRPC port (default 8050).")
  Integer port;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "Prometheus metrics over HTTP (default 8059; 0 any, -1 none).")
  Integer metricsPort;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Data directory (default nws-data/memory).")
  String dataDir;

  @Option(names = "--nameserver", paramLabel = "HOST:PORT",
      description = "Nameserver to register with (default localhost:8090).")
  String nameserver;

  @Option(names = "--name", description = "Registration name (default memory@HOST).")
  String name;

  @Option(names = "--host", description = "Host name to advertise (default: this machine's).")
  String host;

  @Option(names = "--raw-points", paramLabel = "N",
      description = "Raw points kept per series (default 10000).")
  Integer rawPoints;

  @Override
  public Integer call() throws Exception {
    MemoryHostProperties p = ConfigLoader.load(config, MemoryHostProperties.class);
    if (port != null) {
      p.port = port;
    }
    if (metricsPort != null) {
      p.metricsPort = metricsPort;
    }
    if (dataDir != null) {
      p.dataDir = dataDir;
    }
    if (nameserver != null) {
      p.nameserver = nameserver;
    }
    if (name != null) {
      p.name = name;
    }
    if (host != null) {
      p.host = host;
    }
    if (rawPoints != null) {
      if (rawPoints < 1) {
        throw new IllegalArgumentException("--raw-points must be at least 1");
      }
      p.rawPoints = rawPoints;
    }
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    MemoryHostServer m = metrics.closeIfFails(
        () -> MemoryHostServer.start(p, NettyServerBuilder.forPort(p.port)));
    return Foreground.run("memory-host", m::awaitTermination, m::close, metrics,
        "memory-host listening on port " + m.getPort() + ", data in "
        + p.dataDir + ", registered with " + p.nameserver);
  }
}
