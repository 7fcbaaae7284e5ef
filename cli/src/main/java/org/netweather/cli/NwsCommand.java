package org.netweather.cli;

import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.netweather.cli.certs.CertsCommand;
import org.netweather.cli.clique.CliqueCommand;
import org.netweather.cli.config.ConfigCommand;
import org.netweather.cli.daemon.ForecasterCommand;
import org.netweather.cli.daemon.MemoryCommand;
import org.netweather.cli.daemon.NameserverCommand;
import org.netweather.cli.daemon.ProbeServerCommand;
import org.netweather.cli.daemon.ProxyCommand;
import org.netweather.cli.daemon.ReadyCommand;
import org.netweather.cli.daemon.SensorCommand;
import org.netweather.cli.daemon.UpCommand;
import org.netweather.cli.daemon.ZooKeeperCommand;
import org.netweather.cli.forecast.EvaluateCommand;
import org.netweather.cli.forecast.ForecastCommand;
import org.netweather.cli.placement.PlacementCommand;
import org.netweather.cli.plot.PlotCommand;
import org.netweather.cli.probe.ProbeCommand;
import org.netweather.cli.query.HistoryCommand;
import org.netweather.cli.query.HostsCommand;
import org.netweather.cli.query.PutCommand;
import org.netweather.cli.query.SeriesCommand;
import org.netweather.cli.query.SnapshotCommand;
import org.netweather.cli.query.StatusCommand;
import org.netweather.cli.schedule.ScheduleCommand;
import org.netweather.cli.schedule.SchedulerPluginProvider;
import org.netweather.cli.web.WebCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code nws} command: the daemons ({@code daemon}), the queries ({@code query}), cliques,
 * forecasts, a one-off probe, and {@code nws schedule} with every scheduler plugin found on the
 * class path ({@code schedule}).
 */
@Command(
    name = "nws",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    // Every subcommand gets --help and --version.
    scope = ScopeType.INHERIT,
    description = "NetWeather: measure, store and forecast what a new job would get.")
public final class NwsCommand implements Callable<Integer> {
  /**
   * Every subcommand, in the order {@code nws --help} lists them. Added one at a time rather than
   * through {@code @Command(subcommands)}: a package that ships only some roles' libraries (the
   * sensor's) leaves the others' commands unloadable, and those must not take the rest down.
   */
  private static final List<Class<?>> SUBCOMMANDS =
      List.of(
          UpCommand.class,
          NameserverCommand.class,
          MemoryCommand.class,
          ForecasterCommand.class,
          ProxyCommand.class,
          SensorCommand.class,
          ProbeCommand.class,
          ProbeServerCommand.class,
          ZooKeeperCommand.class,
          CliqueCommand.class,
          PlacementCommand.class,
          HostsCommand.class,
          HostsCommand.SearchCommand.class,
          SeriesCommand.class,
          HistoryCommand.class,
          PutCommand.class,
          ForecastCommand.class,
          EvaluateCommand.class,
          PlotCommand.class,
          WebCommand.class,
          SnapshotCommand.class,
          StatusCommand.class,
          ReadyCommand.class,
          ScheduleCommand.class,
          ConfigCommand.class,
          CertsCommand.class);

  /** Commands that run daemons: their logs, gRPC's included, are the daemon's record. */
  private static final Set<Class<?>> DAEMONS =
      Set.of(
          UpCommand.class,
          NameserverCommand.class,
          MemoryCommand.class,
          ForecasterCommand.class,
          ProxyCommand.class,
          SensorCommand.class,
          ProbeServerCommand.class,
          ZooKeeperCommand.class);

  /** Plugins that were top-level commands before {@code nws schedule} held them all. */
  private static final List<String> OLD_TOP_LEVEL = List.of("cluster", "swap");

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ErrorHandler.USAGE;
  }

  /** Whether {@code command} runs a daemon (its transport logs are then worth keeping). */
  public static boolean runsDaemon(Object command) {
    return DAEMONS.contains(command.getClass());
  }

  /**
   * Hidden aliases, so {@code nws cluster ...} and {@code nws swap ...} typed before still work.
   */
  private static void addOldTopLevel(CommandLine cmd) {
    for (String name : OLD_TOP_LEVEL) {
      ScheduleCommand.registry()
          .provider(name)
          .map(SchedulerPluginProvider::newCommand)
          .ifPresent(
              command -> {
                CommandLine alias = new CommandLine(command);
                alias.getCommandSpec().usageMessage().hidden(true);
                cmd.addSubcommand(name, alias);
              });
    }
  }

  /** The configured command line, for {@code main} and for tests with captured output. */
  public static CommandLine commandLine() {
    CommandLine cmd = new CommandLine(new NwsCommand());
    for (Class<?> sub : SUBCOMMANDS) {
      cmd.addSubcommand(AbsentCommand.orAbsent(sub));
    }
    cmd.setExecutionExceptionHandler(new ErrorHandler())
        .setParameterExceptionHandler(
            (ex, args) -> {
              String path = ErrorHandler.commandPath(ex.getCommandLine());
              ex.getCommandLine().getErr().println(path + ": " + ex.getMessage());
              ex.getCommandLine().getErr().println("(" + path + " --help for usage)");
              return ErrorHandler.USAGE;
            });
    if (cmd.getSubcommands().get("schedule").getCommand() instanceof ScheduleCommand) {
      addOldTopLevel(cmd);
    }
    return cmd;
  }
}
