package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import org.netweather.forecaster.ForecasterProperties;
import org.netweather.forecaster.ForecasterServer;
import org.netweather.runtime.Channels;
import picocli.CommandLine.Command;

/** {@code nws forecaster}: runs the forecaster in the foreground. */
@Command(
    name = "forecaster",
    description = "Run the forecaster in the foreground.",
    modelTransformer = ConfigFlags.class)
public final class ForecasterCommand extends ConfiguredCommand {
  public ForecasterCommand() {
    super(ForecasterProperties.SCHEMA);
  }

  @Override
  public Integer call() throws Exception {
    ForecasterProperties p = new ForecasterProperties(configuration().get(0));
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    ForecasterServer f =
        metrics.closeIfFails(
            () ->
                ForecasterServer.start(p, NettyServerBuilder.forPort(p.port), Channels::plaintext));
    return Foreground.run(
        "forecaster",
        f::awaitTermination,
        f::close,
        metrics,
        "forecaster listening on port "
            + f.getPort()
            + ", following memory-hosts"
            + " registered with "
            + p.nameserver);
  }
}
