package org.netweather.cli.config;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.netweather.cli.daemon.ConfiguredCommand;
import org.netweather.runtime.config.ConfigValues;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nws config show DAEMON [--config FILE] [flags]}: the configuration the daemon would run
 * with, each value with where it came from. The arguments after DAEMON are parsed by the daemon's
 * own command, so they mean exactly what they would mean there.
 */
@Command(
    name = "show",
    modelTransformer = ShowCommand.DaemonArgs.class,
    description =
        "Print a daemon's effective configuration and where each value came from "
            + "(default, file, flag). DAEMON: nameserver, memory-host (or memory), forecaster, "
            + "proxy, sensor, up.")
public final class ShowCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DAEMON", description = "The daemon.")
  String daemon;

  @Parameters(
      index = "1..*",
      paramLabel = "ARGS",
      description = "--config FILE and flags, as the daemon's command takes them.")
  List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  /** Everything after DAEMON belongs to the daemon's command, options included. */
  public static final class DaemonArgs implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec spec) {
      spec.parser().stopAtPositional(true);
      return spec;
    }
  }

  @Override
  public Integer call() {
    ConfiguredCommand command = ConfigCommand.parsed(daemon, args);
    print(command.configuration(), spec.commandLine().getOut());
    return 0;
  }

  /** One block per daemon: key, value, source, in aligned columns. */
  static void print(List<ConfigValues> configs, PrintWriter out) {
    int keyWidth = 0;
    int valueWidth = 0;
    for (ConfigValues c : configs) {
      for (ConfigValues.Value v : c.values()) {
        keyWidth = Math.max(keyWidth, v.setting().key().length());
        valueWidth = Math.max(valueWidth, v.shown().length());
      }
    }
    String row = "  %-" + keyWidth + "s  %-" + valueWidth + "s  %s%n";
    for (int i = 0; i < configs.size(); i++) {
      ConfigValues c = configs.get(i);
      out.printf("%s%s:%n", i == 0 ? "" : "\n", c.schema().name());
      for (ConfigValues.Value v : c.values()) {
        out.printf(row, v.setting().key(), v.shown(), v.source());
      }
    }
    out.flush();
  }
}
