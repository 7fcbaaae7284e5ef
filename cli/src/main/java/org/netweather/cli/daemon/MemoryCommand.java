package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import picocli.CommandLine.Command;

/** {@code nws memory}: runs a memory-host in the foreground. */
@Command(
    name = "memory",
    description = "Run a memory-host in the foreground.",
    modelTransformer = ConfigFlags.class)
public final class MemoryCommand extends ConfiguredCommand {
  public MemoryCommand() {
    super(MemoryHostProperties.SCHEMA);
  }

  @Override
  public Integer call() throws Exception {
    MemoryHostProperties p = new MemoryHostProperties(configuration().get(0));
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    MemoryHostServer m =
        metrics.closeIfFails(() -> MemoryHostServer.start(p, NettyServerBuilder.forPort(p.port)));
    return Foreground.run(
        "memory-host",
        m::awaitTermination,
        m::close,
        metrics,
        "memory-host listening on port "
            + m.getPort()
            + ", data in "
            + p.dataDir
            + ", registered with "
            + p.nameserver);
  }
}
