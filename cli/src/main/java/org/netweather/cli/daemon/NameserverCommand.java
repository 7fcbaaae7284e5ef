package org.netweather.cli.daemon;

import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.tls.ConnectionSettings;
import org.netweather.runtime.tls.DaemonTransport;
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
    ConfigValues c = startConfiguration().get(0);
    NameserverProperties p = new NameserverProperties(c);
    DaemonTransport transport = DaemonTransport.of(p.tls());
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    NameserverServer ns =
        metrics.closeIfFails(
            () ->
                NameserverServer.start(
                    p,
                    transport.server("", p.port, ConnectionSettings.limits(c)),
                    transport.channels()));
    return Foreground.run(
        "nameserver",
        ns::awaitTermination,
        () -> Foreground.closeBoth(ns, transport),
        metrics,
        "nameserver listening on port " + ns.getPort() + ", state in " + p.dataDir);
  }
}
