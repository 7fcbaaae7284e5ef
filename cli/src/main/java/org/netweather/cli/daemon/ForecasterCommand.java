package org.netweather.cli.daemon;

import org.netweather.forecaster.ForecasterProperties;
import org.netweather.forecaster.ForecasterServer;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.tls.ConnectionSettings;
import org.netweather.runtime.tls.DaemonTransport;
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
    ConfigValues c = startConfiguration().get(0);
    ForecasterProperties p = new ForecasterProperties(c);
    DaemonTransport transport = DaemonTransport.of(p.tls());
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    ForecasterServer f =
        metrics.closeIfFails(
            () ->
                ForecasterServer.start(
                    p,
                    transport.server("", p.port, ConnectionSettings.limits(c)),
                    transport.channels()));
    return Foreground.run(
        "forecaster",
        f::awaitTermination,
        () -> Foreground.closeBoth(f, transport),
        metrics,
        "forecaster listening on port "
            + f.getPort()
            + ", following memory-hosts"
            + " registered with "
            + p.nameserver);
  }
}
