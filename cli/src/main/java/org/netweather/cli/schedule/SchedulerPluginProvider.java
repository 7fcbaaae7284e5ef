package org.netweather.cli.schedule;

/**
 * One scheduler plugin, as the registry and {@code nws schedule} see it.
 *
 * <p>Implementations are found by {@link java.util.ServiceLoader} (list them in {@code
 * META-INF/services/org.netweather.cli.schedule.SchedulerPluginProvider}) or registered by hand
 * with {@link SchedulerPluginRegistry#register}. They must be cheap to construct: the registry
 * instantiates every provider it finds, including those it then ignores.
 */
public interface SchedulerPluginProvider {
  /** The subcommand name, e.g. {@code jacobi} for {@code nws schedule jacobi}. */
  String name();

  /** One line for {@code nws schedule --help}. */
  String description();

  /**
   * Whether the plugin can run here (for example, an optional native library is present). An
   * unavailable provider is ignored by the registry.
   */
  boolean isAvailable();

  /**
   * Among providers of the same name, the one with the highest priority wins; 5 is the default for
   * NetWeather's own plugins, so 6 or more replaces one of them.
   */
  int priority();

  /**
   * A new picocli command object (a class annotated with {@code @picocli.CommandLine.Command}) that
   * runs the plugin. Typed as {@code Object} so the SPI does not tie plugin authors to a picocli
   * version at compile time.
   */
  Object newCommand();
}
