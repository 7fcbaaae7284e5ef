package org.netweather.runtime.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.util.FileSize;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * Sets up the process's logging from {@link LogSettings}, in code rather than from an XML file
 * (which would load an XML parser and several hundred classes into every daemon, the sensor
 * included): stderr always (stdout belongs to command output), a size-rotated file when asked, text
 * or JSON lines, the root level from {@code NWS_LOG_LEVEL} (INFO by default), chatty libraries at
 * WARN, then the configured levels per logger, and a {@link RepeatFilter}.
 */
public final class Logs {
  /**
   * One line per event: the time with its zone, level, thread, logger, message, and an exception's
   * first lines folded onto the same line with " | ".
   */
  static final String TEXT_PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{36} - %msg%exline{6}%n";

  /** Libraries that log too much at INFO for an operator. */
  private static final Map<String, Level> QUIET =
      Map.of(
          "io.grpc",
          Level.WARN,
          "io.netty",
          Level.WARN,
          "org.rrd4j",
          Level.WARN,
          "oshi",
          Level.WARN,
          // ZooKeeper's client logs its whole class path and environment at INFO on connecting.
          "org.apache.zookeeper",
          Level.WARN,
          "org.apache.curator",
          Level.WARN);

  static final long REPEAT_WINDOW_MS = 60_000;

  private static ScheduledExecutorService flusher;
  private static RepeatFilter repeats;

  private Logs() {}

  /** Applies {@code settings} to this process's logging, replacing what was there. */
  public static synchronized void apply(LogSettings settings) {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx) {
      configure(ctx, settings);
    }
  }

  static synchronized void configure(LoggerContext ctx, LogSettings settings) {
    ctx.reset();
    Map<String, Supplier<DynamicConverter<?>>> rules = new HashMap<>();
    rules.put("exline", OneLineThrowableConverter::new);
    ctx.putObject(CoreConstants.PATTERN_RULE_REGISTRY_FOR_SUPPLIERS, rules);
    Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(ctx);
    stderr.setName("stderr");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder(ctx, settings.format()));
    stderr.start();
    root.addAppender(stderr);
    if (!settings.file().isEmpty()) {
      root.addAppender(file(ctx, settings));
    }
    root.setLevel(rootLevel());
    QUIET.forEach((name, level) -> ctx.getLogger(name).setLevel(level));
    settings
        .levels()
        .forEach((name, level) -> ctx.getLogger(name).setLevel(Level.toLevel(level, Level.INFO)));
    if (repeats == null) {
      repeats = new RepeatFilter(REPEAT_WINDOW_MS, System::currentTimeMillis);
      flusher =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "log-repeats");
                t.setDaemon(true);
                return t;
              });
      flusher.scheduleWithFixedDelay(
          repeats::flush, REPEAT_WINDOW_MS, REPEAT_WINDOW_MS, TimeUnit.MILLISECONDS);
    }
    repeats.setContext(ctx);
    repeats.start();
    ctx.addTurboFilter(repeats);
  }

  private static Level rootLevel() {
    String env = System.getenv("NWS_LOG_LEVEL");
    if (env == null || env.isBlank()) {
      env = System.getProperty("NWS_LOG_LEVEL", "INFO");
    }
    return Level.toLevel(env.strip().toUpperCase(Locale.ROOT), Level.INFO);
  }

  private static Encoder<ILoggingEvent> encoder(LoggerContext ctx, String format) {
    if (format.equals("json")) {
      JsonEncoder json = new JsonEncoder();
      json.setContext(ctx);
      json.start();
      return json;
    }
    PatternLayoutEncoder text = new PatternLayoutEncoder();
    text.setContext(ctx);
    text.setPattern(TEXT_PATTERN);
    text.start();
    return text;
  }

  private static RollingFileAppender<ILoggingEvent> file(LoggerContext ctx, LogSettings s) {
    RollingFileAppender<ILoggingEvent> out = new RollingFileAppender<>();
    out.setContext(ctx);
    out.setName("file");
    out.setFile(s.file());
    FixedWindowRollingPolicy rolling = new FixedWindowRollingPolicy();
    rolling.setContext(ctx);
    rolling.setParent(out);
    rolling.setFileNamePattern(s.file() + ".%i");
    rolling.setMinIndex(1);
    rolling.setMaxIndex(s.files());
    rolling.start();
    SizeBasedTriggeringPolicy<ILoggingEvent> size = new SizeBasedTriggeringPolicy<>();
    size.setContext(ctx);
    size.setMaxFileSize(new FileSize((long) s.fileMaxMb() << 20));
    // Look at the size on every event: daemons log little, and a burst must still rotate.
    size.setCheckIncrement(ch.qos.logback.core.util.Duration.buildByMilliseconds(0));
    size.start();
    out.setRollingPolicy(rolling);
    out.setTriggeringPolicy(size);
    out.setEncoder(encoder(ctx, s.format()));
    out.start();
    return out;
  }
}
