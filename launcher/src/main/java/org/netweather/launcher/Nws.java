package org.netweather.launcher;

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
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
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
public final class Nws implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getErr());
  }

  /** The configured command line, for tests to run with captured output. */
  public static CommandLine commandLine() {
    return new CommandLine(new Nws())
        .setExecutionExceptionHandler(new ErrorHandler())
        .setParameterExceptionHandler((ex, args) -> {
          ex.getCommandLine().getErr().println("nws: " + ex.getMessage());
          ex.getCommandLine().getErr().println("(nws " + ex.getCommandLine().getCommandName()
              + " --help for usage)");
          return ErrorHandler.USAGE;
        });
  }

  public static void main(String[] args) {
    // gRPC logs through java.util.logging; send it to the same place as everything else.
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    System.exit(commandLine().execute(args));
  }
}
