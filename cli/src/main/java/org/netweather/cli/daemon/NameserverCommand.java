package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.runtime.ConfigLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nws nameserver}: runs the nameserver in the foreground. */
@Command(name = "nameserver", description = "Run the nameserver in the foreground.")
public final class NameserverCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration file.")
  Path config;

  @Option(names = "--port", description = "gRPC port (default 8090).")
  Integer port;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "Prometheus metrics over HTTP (default 8099; 0 any, -1 none).")
  Integer metricsPort;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "State directory (default nws-data/nameserver).")
  String dataDir;

  @Option(names = "--host", description = "Host name to advertise (default: this machine's).")
  String host;

  @Override
  public Integer call() throws Exception {
    NameserverProperties p = ConfigLoader.load(config, NameserverProperties.class);
    if (port != null) {
      p.port = port;
    }
    if (metricsPort != null) {
      p.metricsPort = metricsPort;
    }
    if (dataDir != null) {
      p.dataDir = dataDir;
    }
    if (host != null) {
      p.host = host;
    }
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    NameserverServer ns = metrics.closeIfFails(
        () -> NameserverServer.start(p, NettyServerBuilder.forPort(p.port)));
    return Foreground.run("nameserver", ns::awaitTermination, ns::close, metrics,
        "nameserver listening on port " + ns.getPort() + ", state in "
        + p.dataDir);
  }
}
