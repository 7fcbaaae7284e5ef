package org.netweather.cli.daemon;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.netweather.sensor.Ticker;
import org.netweather.sensor.daemon.SkillSet;
import org.netweather.sensor.probe.ProbeServer;
import org.netweather.sensor.probe.ProbeServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nws probe-server}: a bare probe listener, for {@code nws probe} and testbeds. */
@Command(
    name = "probe-server",
    description =
        "Run a probe listener in the foreground that "
            + "answers any peer (for nws probe and testbeds; a sensor runs its own).")
public final class ProbeServerCommand implements Callable<Integer> {
  @Option(names = "--bind", paramLabel = "ADDR", description = "Address (default: all).")
  String bind;

  @Option(
      names = "--port",
      defaultValue = "8061",
      description = "Port (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--probe-key-file",
      paramLabel = "FILE",
      description = "Serve only hellos sealed with the site's probe key in FILE.")
  java.nio.file.Path probeKeyFile;

  @Override
  public Integer call() throws Exception {
    SkillSet skills = SkillSet.create();
    ProbeServer server =
        new ProbeServer(
                skills.group(),
                ProbeServerOptions.defaults(
                        bind == null
                            ? new InetSocketAddress(port)
                            : new InetSocketAddress(bind, port))
                    .withKey(
                        probeKeyFile == null
                            ? null
                            : org.netweather.sensor.probe.ProbeKey.fromFile(
                                probeKeyFile, System::currentTimeMillis)),
                a -> true,
                Ticker.system())
            .start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  skills.close();
                },
                "probe-server-shutdown"));
    System.err.println("probe listener on " + server.address());
    new CountDownLatch(1).await();
    return 0;
  }
}
