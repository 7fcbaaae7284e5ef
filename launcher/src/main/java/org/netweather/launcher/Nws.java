package org.netweather.launcher;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.netweather.clients.cli.CliqueCommand;
import org.netweather.clients.cli.ErrorHandler;
import org.netweather.clients.cli.HistoryCommand;
import org.netweather.clients.cli.HostsCommand;
import org.netweather.clients.cli.PutCommand;
import org.netweather.clients.cli.SeriesCommand;
import org.netweather.clients.cli.SnapshotCommand;
import org.netweather.clients.cli.StatusCommand;
import org.netweather.scheduler.cli.ClusterCommand;
import org.netweather.scheduler.cli.ScheduleCommand;
import org.netweather.scheduler.cli.SwapCommand;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

/** The {@code nws} command line. */
@Command(name = "nws", mixinStandardHelpOptions = true, version = "NetWeather 0.1.0",
    // Every subcommand gets --help and --version.
    scope = ScopeType.INHERIT,
    description = "NetWeather: measure, store and forecast what a new job would get.",
    subcommands = {
        UpCommand.class,
        NameserverCommand.class,
        MemoryCommand.class,
        ForecasterCommand.class,
        ProxyCommand.class,
        SensorCommand.class,
        ProbeCommand.class,
        ProbeServerCommand.class,
        CliqueCommand.class,
        HostsCommand.class,
        HostsCommand.SearchCommand.class,
        SeriesCommand.class,
        HistoryCommand.class,
        PutCommand.class,
        ForecastCommand.class,
        EvaluateCommand.class,
        SnapshotCommand.class,
        StatusCommand.class,
        ScheduleCommand.class,
        ClusterCommand.class,
        SwapCommand.class,
    })
public final class Nws implements Callable<Integer> {
  /** Commands that run daemons: their logs, gRPC's included, are the daemon's record. */
  private static final Set<Class<?>> DAEMONS = Set.of(UpCommand.class, NameserverCommand.class,
      MemoryCommand.class, ForecasterCommand.class, ProxyCommand.class, SensorCommand.class,
      ProbeServerCommand.class);

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ErrorHandler.USAGE;
  }

  /** The configured command line, for tests to run with captured output. */
  public static CommandLine commandLine() {
    return new CommandLine(new Nws())
        .setExecutionExceptionHandler(new ErrorHandler())
        .setParameterExceptionHandler((ex, args) -> {
          String path = ErrorHandler.commandPath(ex.getCommandLine());
          ex.getCommandLine().getErr().println(path + ": " + ex.getMessage());
          ex.getCommandLine().getErr().println("(" + path + " --help for usage)");
          return ErrorHandler.USAGE;
        });
  }

  public static void main(String[] args) {
    // gRPC logs through java.util.logging; send it to the same place as everything else.
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    CommandLine cmd = commandLine();
    cmd.setExecutionStrategy(parsed -> {
      if (!DAEMONS.contains(leaf(parsed).getClass())) {
        quietTransportLogs();
      }
      return new CommandLine.RunLast().execute(parsed);
    });
    System.exit(cmd.execute(args));
  }

  private static Object leaf(ParseResult parsed) {
    List<CommandLine> path = parsed.asCommandLineList();
    return path.get(path.size() - 1).getCommand();
  }

  /**
   * A one-shot command reports its own failures in one line; gRPC's and Netty's warnings about
   * the same failure (an unknown host, say) would only add a stack trace before it.
   */
  private static void quietTransportLogs() {
    for (String name : List.of("io.grpc", "io.netty")) {
      if (LoggerFactory.getLogger(name) instanceof Logger logger) {
        logger.setLevel(Level.ERROR);
      }
    }
  }
}
