package org.netweather.cli.config;

import java.util.LinkedHashMap;
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

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ErrorHandler.USAGE;
  }
}
