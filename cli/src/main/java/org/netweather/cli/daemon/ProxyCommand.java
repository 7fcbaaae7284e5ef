package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;
import org.netweather.runtime.Channels;
import picocli.CommandLine.Command;

/** {@code nws proxy}: runs one cluster's proxy in the foreground. */
@Command(
    name = "proxy",
    description = "Run a cluster's proxy in the foreground.",
    modelTransformer = ConfigFlags.class)
public final class ProxyCommand extends ConfiguredCommand {
  public ProxyCommand() {
    super(ProxyProperties.SCHEMA);
  }

  @Override
  public Integer call() throws Exception {
    ProxyProperties p = new ProxyProperties(configuration().get(0));
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    ProxyServer proxy =
        metrics.closeIfFails(
            () -> ProxyServer.start(p, NettyServerBuilder.forPort(p.port), Channels::plaintext));
    return Foreground.run(
        "proxy",
        proxy::awaitTermination,
        proxy::close,
        metrics,
        "proxy for cluster " + p.cluster + " listening on port " + proxy.getPort());
  }
}
