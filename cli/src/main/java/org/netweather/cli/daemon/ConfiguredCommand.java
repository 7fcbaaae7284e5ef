package org.netweather.cli.daemon;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.netweather.runtime.config.ConfigSchema;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.logging.LogSettings;
import org.netweather.runtime.logging.Logs;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A command that runs from a configuration: the defaults, then {@code --config FILE}, then the
 * flags {@link ConfigFlags} generates from the command's schema.
 */
public abstract class ConfiguredCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration file.")
  Path config;

  @Spec CommandSpec spec;

  private final ConfigSchema schema;

  ConfiguredCommand(ConfigSchema schema) {
    this.schema = schema;
  }

  /** The schema whose settings are this command's flags. */
  public final ConfigSchema schema() {
    return schema;
  }

  /**
   * The effective configuration of each daemon the command runs, each value with its source.
   *
   * @throws org.netweather.runtime.config.ConfigException naming the key and the source of a bad
   *     value
   */
  /**
   * The configuration, with this process's logging set up from its first section (the command's
   * own, or {@code up}'s): what a daemon calls before it starts.
   */
  protected final List<ConfigValues> startConfiguration() {
    List<ConfigValues> c = configuration();
    Logs.apply(LogSettings.from(c.get(0)));
    return c;
  }

  public List<ConfigValues> configuration() {
    return List.of(
        ConfigFlags.apply(spec, schema, ConfigValues.builder(schema).file(config)).build());
  }
}
