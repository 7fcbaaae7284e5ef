package org.netweather.cli.daemon;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.netweather.runtime.config.ConfigSchema;
import org.netweather.runtime.config.ConfigValues;
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
  public List<ConfigValues> configuration() {
    return List.of(
        ConfigFlags.apply(spec, schema, ConfigValues.builder(schema).file(config)).build());
  }
}
