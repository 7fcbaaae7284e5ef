package org.netweather.cli.daemon;

import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.tls.ConnectionSettings;
import org.netweather.runtime.tls.DaemonTransport;
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
    ConfigValues c = startConfiguration().get(0);
    MemoryHostProperties p = new MemoryHostProperties(c);
    DaemonTransport transport = DaemonTransport.of(p.tls());
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    MemoryHostServer m =
        metrics.closeIfFails(
            () ->
                MemoryHostServer.start(
                    p,
                    transport.server("", p.port, ConnectionSettings.limits(c)),
                    transport.channels()));
    return Foreground.run(
        "memory-host",
        m::awaitTermination,
        () -> Foreground.closeBoth(m, transport),
        metrics,
        "memory-host listening on port "
            + m.getPort()
            + ", data in "
            + p.dataDir
            + ", registering with the nameserver at "
            + p.nameserver);
  }
}
