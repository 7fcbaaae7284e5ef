package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;
import org.netweather.runtime.Channels;
import org.netweather.runtime.ConfigLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nws proxy}: runs one cluster's proxy in the foreground. */
@Command(name = "proxy", description = "Run a cluster's proxy in the foreground.")
public final class ProxyCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration file.")
  Path config;

  @Option(names = "--port", description = "gRPC port (default 8080).")
  Integer port;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "Prometheus metrics over HTTP (default 8089; 0 any, -1 none).")
  Integer metricsPort;

  @Option(names = "--nameserver", paramLabel = "HOST:PORT",
      description = "Nameserver (default localhost:8090).")
  String nameserver;

  @Option(names = "--cluster", description = "Cluster served (default: default).")
  String cluster;

  @Option(names = "--hosts", split = ",", paramLabel = "H1,H2,...",
      description = "Hosts of the cluster besides sensors registered with its name.")
  List<String> hosts;

  @Option(names = "--host", description = "Host name to advertise (default: this machine's).")
  String host;

  @Override
  public Integer call() throws Exception {
    ProxyProperties p = ConfigLoader.load(config, ProxyProperties.class);
    if (port != null) {
      p.port = port;
    }
    if (metricsPort != null) {
      p.metricsPort = metricsPort;
    }
    if (nameserver != null) {
      p.nameserver = nameserver;
    }
    if (cluster != null) {
      p.cluster = cluster;
    }
    if (hosts != null) {
      p.hosts = hosts;
    }
    if (host != null) {
      p.host = host;
    }
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    ProxyServer proxy = metrics.closeIfFails(() -> ProxyServer.start(
        p, NettyServerBuilder.forPort(p.port), Channels::plaintext));
    return Foreground.run("proxy", proxy::awaitTermination, proxy::close, metrics,
        "proxy for cluster " + p.cluster + " listening on port "
        + proxy.getPort());
  }
}
