package org.netweather.runtime.logging;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.config.Setting;

/**
 * The logging keys every daemon's configuration has, and their values.
 *
 * @param format {@code text} (one line per event) or {@code json} (one JSON object per line)
 * @param file a file to log to as well as stderr, rotated by size; empty for stderr only
 * @param fileMaxMb size at which the file is rotated
 * @param files rotated files kept besides the current one
 * @param levels logger name (a package or class) to level, applied after {@code NWS_LOG_LEVEL}
 */
public record LogSettings(
    String format, String file, int fileMaxMb, int files, Map<String, String> levels) {
  static final Set<String> LEVELS = Set.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");

  public static final Setting<String> LOG_FORMAT =
      Setting.text(
              "logFormat",
              "text",
              "text: one line per event, ISO-8601 time with zone first; json: one JSON object"
                  + " per line (for journald or Loki).")
          .check(
              "text or json",
              v -> v.equals("text") || v.equals("json") ? null : "must be text or json");
  public static final Setting<String> LOG_FILE =
      Setting.text(
              "logFile",
              "",
              "Also log to this file, rotated at logFileMaxMb into FILE.1 ... FILE.N; empty:"
                  + " stderr only.")
          .label("FILE");
  public static final Setting<Integer> LOG_FILE_MAX_MB =
      Setting.integer("logFileMaxMb", 50, "Size in MiB at which the log file is rotated.")
          .between(1, 10_000);
  public static final Setting<Integer> LOG_FILES =
      Setting.integer("logFiles", 5, "Rotated log files kept besides the current one.")
          .between(1, 100);
  public static final Setting<List<String>> LOG_LEVELS =
      Setting.list(
              "logLevels",
              List.of(),
              "Levels per component, LOGGER=LEVEL (e.g. org.netweather.sensor=DEBUG,"
                  + " io.grpc=INFO); the rest log at NWS_LOG_LEVEL (INFO unless set).")
          .check("LOGGER=LEVEL entries", LogSettings::levelsProblem);

  /** The keys, in the order each daemon's schema lists them. */
  public static final List<Setting<?>> SETTINGS =
      List.of(LOG_FORMAT, LOG_FILE, LOG_FILE_MAX_MB, LOG_FILES, LOG_LEVELS);

  /** Text to stderr at the default levels. */
  public static LogSettings defaults() {
    return new LogSettings("text", "", 50, 5, Map.of());
  }

  /** The values in a daemon's configuration (whose schema includes {@link #SETTINGS}). */
  public static LogSettings from(ConfigValues values) {
    return new LogSettings(
        values.get(LOG_FORMAT),
        values.get(LOG_FILE),
        values.get(LOG_FILE_MAX_MB),
        values.get(LOG_FILES),
        parse(values.get(LOG_LEVELS)));
  }

  static Map<String, String> parse(List<String> entries) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String e : entries) {
      int eq = e.indexOf('=');
      out.put(
          e.substring(0, eq).strip(),
          e.substring(eq + 1).strip().toUpperCase(java.util.Locale.ROOT));
    }
    return out;
  }

  private static String levelsProblem(List<String> entries) {
    for (String e : entries) {
      int eq = e.indexOf('=');
      if (eq <= 0) {
        return "must be LOGGER=LEVEL, got '" + e + "'";
      }
      String level = e.substring(eq + 1).strip().toUpperCase(java.util.Locale.ROOT);
      if (!LEVELS.contains(level)) {
        return "level of '" + e + "' must be one of " + LEVELS;
      }
    }
    return null;
  }
}
