package org.netweather.cli.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.netweather.cli.ErrorHandler;
import org.netweather.cli.daemon.ConfiguredCommand;
import org.netweather.cli.daemon.ForecasterCommand;
import org.netweather.cli.daemon.MemoryCommand;
import org.netweather.cli.daemon.NameserverCommand;
import org.netweather.cli.daemon.ProxyCommand;
import org.netweather.cli.daemon.SensorCommand;
import org.netweather.cli.daemon.UpCommand;
import org.netweather.runtime.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code nws config}: the daemons' configuration, effective ({@code show}) and documented. */
@Command(
    name = "config",
    description = "Show the daemons' configuration.",
    subcommands = {ShowCommand.class, ReferenceCommand.class, ExampleCommand.class})
public final class ConfigCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** The commands that run from a configuration, by the name {@code config show} takes. */
  public static Map<String, Supplier<ConfiguredCommand>> daemons() {
    Map<String, Supplier<ConfiguredCommand>> out = new LinkedHashMap<>();
    out.put("nameserver", NameserverCommand::new);
    out.put("memory-host", MemoryCommand::new);
    out.put("forecaster", ForecasterCommand::new);
    out.put("proxy", ProxyCommand::new);
    out.put("sensor", SensorCommand::new);
    out.put("up", UpCommand::new);
    return out;
  }

  /**
   * The command of {@code daemon} (memory-host may be called memory) with {@code args} parsed as it
   * parses them, so they mean exactly what they would mean there.
   *
   * @throws ConfigException naming an unknown daemon or a bad argument
   */
  public static ConfiguredCommand parsed(String daemon, List<String> args) {
    String name = daemon.equals("memory") ? "memory-host" : daemon;
    Supplier<ConfiguredCommand> factory = daemons().get(name);
    if (factory == null) {
      throw new ConfigException(
          "unknown daemon '" + daemon + "' (known: " + String.join(", ", daemons().keySet()) + ")");
    }
    ConfiguredCommand command = factory.get();
    try {
      new picocli.CommandLine(command).parseArgs(args.toArray(String[]::new));
    } catch (picocli.CommandLine.ParameterException e) {
      throw new ConfigException(e.getMessage());
    }
    return command;
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ErrorHandler.USAGE;
  }
}
