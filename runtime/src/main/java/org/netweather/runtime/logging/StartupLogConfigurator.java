package org.netweather.runtime.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's configuration at start, found through {@code META-INF/services}: the defaults of {@link
 * Logs} until a daemon applies its own settings. A {@code logback-test.xml} on the class path (the
 * tests') takes precedence.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class StartupLogConfigurator extends ContextAwareBase implements Configurator {
  @Override
  public ExecutionStatus configure(LoggerContext ctx) {
    if (StartupLogConfigurator.class.getClassLoader().getResource("logback-test.xml") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    Logs.configure(ctx, LogSettings.defaults());
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
