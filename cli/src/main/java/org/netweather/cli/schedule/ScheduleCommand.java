package org.netweather.cli.schedule;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code nws schedule NAME ...}: runs a scheduler plugin. The subcommands are not listed here: they
 * are added when the command is built, one per provider in the default {@link
 * SchedulerPluginRegistry} (the built-in plugins are registered first), so a plugin on the class
 * path appears without changes to the launcher.
 *
 * <pre>{@code
 * @Command(name = "nws", subcommands = {ScheduleCommand.class, ...})
 * }</pre>
 */
@Command(
    name = "schedule",
    modelTransformer = ScheduleCommand.Plugins.class,
    description = "Run a scheduler plugin over NetWeather forecasts (nws schedule NAME --help).")
public final class ScheduleCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  // A name that is not a plugin's lands here rather than in picocli's "Unmatched argument",
  // and the plugin options after it in `unmatched`, so call() can say which names there are.
  @Parameters(
      arity = "0..1",
      paramLabel = "NAME",
      hidden = true,
      description = "A scheduler plugin's name.")
  String name;

  @Unmatched List<String> unmatched;

  @Override
  public Integer call() {
    String known = String.join(", ", spec.subcommands().keySet());
    if (name != null) {
      throw new IllegalArgumentException("unknown scheduler '" + name + "'; known: " + known);
    }
    spec.commandLine().getErr().println("nws schedule: name a plugin: " + known);
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  /**
   * The default registry: every provider named in a {@code
   * META-INF/services/org.netweather.cli.schedule.SchedulerPluginProvider} on the class path,
   * NetWeather's own included.
   */
  public static SchedulerPluginRegistry registry() {
    return SchedulerPluginRegistry.getDefaultRegistry();
  }

  /** Adds one subcommand per registered plugin while picocli builds the command. */
  public static final class Plugins implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec spec) {
      for (SchedulerPluginProvider p : registry().providers()) {
        if (!spec.subcommands().containsKey(p.name())) {
          spec.addSubcommand(p.name(), new CommandLine(p.newCommand()));
        }
      }
      return spec;
    }
  }
}
