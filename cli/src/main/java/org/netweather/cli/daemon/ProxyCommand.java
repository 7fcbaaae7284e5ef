package org.netweather.cli.daemon;

import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.tls.ConnectionSettings;
import org.netweather.runtime.tls.DaemonTransport;
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
    ConfigValues c = startConfiguration().get(0);
    ProxyProperties p = new ProxyProperties(c);
    DaemonTransport transport = DaemonTransport.of(p.tls());
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.metricsPort);
    ProxyServer proxy =
        metrics.closeIfFails(
            () ->
                ProxyServer.start(
                    p,
                    transport.server("", p.port, ConnectionSettings.limits(c)),
                    transport.channels()));
    return Foreground.run(
        "proxy",
        proxy::awaitTermination,
        () -> Foreground.closeBoth(proxy, transport),
        metrics,
        "proxy for cluster " + p.cluster + " listening on port " + proxy.getPort());
  }
}
