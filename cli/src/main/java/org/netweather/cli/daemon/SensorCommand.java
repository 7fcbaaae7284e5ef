package org.netweather.cli.daemon;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.tls.ConnectionSettings;
import org.netweather.runtime.tls.DaemonTransport;
import org.netweather.sensor.daemon.SensorProperties;
import org.netweather.sensor.daemon.SensorServer;
import picocli.CommandLine.Command;

/** {@code nws sensor}: runs this host's sensor in the foreground. */
@Command(
    name = "sensor",
    description = "Run this host's sensor in the foreground.",
    modelTransformer = ConfigFlags.class)
public final class SensorCommand extends ConfiguredCommand {
  public SensorCommand() {
    super(SensorProperties.SCHEMA);
  }

  @Override
  public Integer call() throws Exception {
    ConfigValues c = startConfiguration().get(0);
    SensorProperties p = new SensorProperties(c);
    DaemonTransport transport = DaemonTransport.of(p.tls());
    NettyServerBuilder builder = transport.server(p.bind, p.port, ConnectionSettings.limits(c));
    MetricsPort metrics = MetricsPort.open("--metrics-port", p.bind, p.metricsPort);
    SensorServer s =
        metrics.closeIfFails(() -> SensorServer.start(p, builder, transport.channels()));
    return Foreground.run(
        "sensor",
        s::awaitTermination,
        () -> Foreground.closeBoth(s, transport),
        metrics,
        "sensor listening on port "
            + s.getPort()
            + ", probes on port "
            + s.probePort()
            + ", spool in "
            + p.dataDir);
  }
}
