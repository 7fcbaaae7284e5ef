package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.netweather.forecaster.ForecasterProperties;
import org.netweather.forecaster.ForecasterServer;
import org.netweather.runtime.Channels;
import org.netweather.runtime.ConfigLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nws forecaster}: runs the forecaster in the foreground. */
@Command(name = "forecaster", description = "Run the forecaster in the foreground.")
public final class ForecasterCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration file.")
  Path config;

  @Option(names = "--port", description = "gRPC port (default 8070).")
  Integer port;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "Prometheus metrics over HTTP (default 8079; 0 any, -1 none).")
  Integer metricsPort;

  @Option(names = "--nameserver", paramLabel = "HOST:PORT",
      description = "Nameserver (default localhost:8090).")
  String nameserver;

  @Option(names = "--host", description = "Host name to advertise (default: this machine's).")
  String host;

  @Override
  public Integer call() throws Exception {
    ForecasterProperties p = ConfigLoader.load(config, ForecasterProperties.class);
    if (port != null) {
      p.port = port;
    }
    if (metricsPort != null) {
      p.metricsPort = metricsPort;
    }
    if (nameserver != null) {
      p.nameserver = nameserver;
    }
    if (host != null) {
      p.host = host;
    }
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    ForecasterServer f = metrics.closeIfFails(() -> ForecasterServer.start(
        p, NettyServerBuilder.forPort(p.port), Channels::plaintext));
    return Foreground.run("forecaster", f::awaitTermination, f::close, metrics,
        "forecaster listening on port " + f.getPort() + ", following memory-hosts"
        + " registered with " + p.nameserver);
  }
}
