package org.netweather.cli.daemon;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.netweather.cli.ErrorHandler;
import org.netweather.cli.config.ConfigCommand;
import org.netweather.cli.config.ShowCommand;
import org.netweather.runtime.config.ConfigException;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.tls.DaemonTransport;
import org.netweather.runtime.tls.TlsFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nws ready DAEMON [--timeout S] [--config FILE] [flags]}: waits until the daemon that this
 * configuration describes answers SERVING on this machine (over TLS with its own certificate when
 * it is configured with one); exit status 0 then, 1 at the time-out. A systemd unit runs it as
 * {@code ExecStartPost}, so the unit is started only once the daemon serves.
 */
@Command(
    name = "ready",
    modelTransformer = ShowCommand.DaemonArgs.class,
    description =
        "Wait until the daemon a configuration describes serves on this machine (for service"
            + " managers). DAEMON: nameserver, memory-host, forecaster, proxy, sensor.")
public final class ReadyCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DAEMON", description = "The daemon.")
  String daemon;

  @Option(
      names = "--timeout",
      defaultValue = "120",
      paramLabel = "S",
      description = "Seconds to wait at most (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Parameters(
      index = "1..*",
      paramLabel = "ARGS",
      description = "--config FILE and flags, as the daemon's command takes them.")
  List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (daemon.equals("up")) {
      throw new ConfigException("nws ready takes one daemon, not up");
    }
    ConfiguredCommand command = ConfigCommand.parsed(daemon, args);
    String name = command.schema().name();
    ConfigValues config = command.configuration().get(0);
    String port = value(config, "port");
    String bind =
        config.schema().settings().stream().anyMatch(s -> s.key().equals("bind"))
            ? value(config, "bind")
            : "";
    String address = (bind.isEmpty() ? "localhost" : bind) + ":" + port;
    TlsFiles tls =
        TlsFiles.of(
            value(config, "tlsCert"),
            value(config, "tlsKey"),
            value(config, "tlsCa"),
            TlsFiles.REFRESH);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    String last = "no answer";
    try (DaemonTransport transport = DaemonTransport.of(tls)) {
      while (System.nanoTime() < deadline) {
        ManagedChannel ch = transport.channels().apply(address);
        try {
          ServingStatus s =
              HealthGrpc.newBlockingStub(ch)
                  .withDeadlineAfter(2, TimeUnit.SECONDS)
                  .check(HealthCheckRequest.getDefaultInstance())
                  .getStatus();
          if (s == ServingStatus.SERVING) {
            spec.commandLine().getOut().println(name + " serving at " + address);
            return 0;
          }
          last = s.name();
        } catch (StatusRuntimeException e) {
          last = e.getStatus().getCode().name();
        } finally {
          ch.shutdownNow();
        }
        Thread.sleep(250);
      }
    }
    spec.commandLine()
        .getErr()
        .println(
            "nws ready: "
                + name
                + " at "
                + address
                + " not serving after "
                + timeoutSeconds
                + " s (last: "
                + last
                + ")");
    return ErrorHandler.FAILED;
  }

  private static String value(ConfigValues config, String key) {
    for (ConfigValues.Value v : config.values()) {
      if (v.setting().key().equals(key)) {
        return String.valueOf(v.value());
      }
    }
    throw new IllegalStateException(config.schema().name() + " has no setting " + key);
  }
}
