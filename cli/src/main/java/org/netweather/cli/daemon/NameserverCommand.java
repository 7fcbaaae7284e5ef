package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import picocli.CommandLine.Command;

/** {@code nws nameserver}: runs the nameserver in the foreground. */
@Command(
    name = "nameserver",
    description = "Run the nameserver in the foreground.",
    modelTransformer = ConfigFlags.class)
public final class NameserverCommand extends ConfiguredCommand {
  public NameserverCommand() {
    super(NameserverProperties.SCHEMA);
  }

  @Override
  public Integer call() throws Exception {
    NameserverProperties p = new NameserverProperties(configuration().get(0));
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    NameserverServer ns =
        metrics.closeIfFails(() -> NameserverServer.start(p, NettyServerBuilder.forPort(p.port)));
    return Foreground.run(
        "nameserver",
        ns::awaitTermination,
        ns::close,
        metrics,
        "nameserver listening on port " + ns.getPort() + ", state in " + p.dataDir);
  }
}
