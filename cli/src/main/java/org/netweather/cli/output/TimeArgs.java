package org.netweather.cli.output;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Times as people type them: {@code now}, epoch milliseconds, an ISO-8601 instant ({@code
 * 2026-11-21T10:00:00Z}), a local date-time ({@code 2026-11-21 10:00:00}), or a span ago ({@code
 * 90s}, {@code 10m}, {@code 2h}, {@code 7d}).
 */
public final class TimeArgs {
  private static final DateTimeFormatter LOCAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd[ ]['T']HH:mm[:ss]");

  private TimeArgs() {}

  /**
   * Parses {@code text} into epoch milliseconds.
   *
   * @throws IllegalArgumentException naming the option and the accepted forms
   */
  public static long parse(String option, String text, Clock clock) {
    long ms = parseUnbounded(option, text, clock);
    if (ms < 0 || ms > LATEST) {
      throw new IllegalArgumentException(
          option + " '" + cut(text) + "' is outside 1970-01-01 to 9999-12-31");
    }
    return ms;
  }

  /** The last millisecond of year 9999, the latest time an option takes. */
  private static final long LATEST = 253_402_300_799_999L;

  private static String cut(String text) {
    return text.length() <= 40
        ? text
        : text.substring(0, 40) + "... (" + text.length() + " characters)";
  }

  private static long parseUnbounded(String option, String text, Clock clock) {
    String t = text.strip();
    if (t.equals("now")) {
      return clock.millis();
    }
    if (t.matches("[0-9]{10,15}")) {
      return Long.parseLong(t);
    }
    if (t.matches("[0-9]{1,9}[smhd]")) {
      long n = Long.parseLong(t.substring(0, t.length() - 1));
      long unit =
          switch (t.charAt(t.length() - 1)) {
            case 's' -> 1_000L;
            case 'm' -> 60_000L;
            case 'h' -> 3_600_000L;
            default -> 86_400_000L;
          };
      return clock.millis() - n * unit;
    }
    try {
      return Instant.parse(t).toEpochMilli();
    } catch (DateTimeParseException e) {
      // try the local form
    }
    try {
      return LocalDateTime.parse(t, LOCAL)
          .atZone(ZoneId.systemDefault())
          .toInstant()
          .toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          option
              + " '"
              + cut(text)
              + "' is not a time: use now, "
              + "epoch milliseconds, 2026-11-21T10:00:00Z, '2026-11-21 10:00:00' or a span ago "
              + "such as 10m, 2h, 7d");
    }
  }

  /**
   * Parses a span such as {@code 90s}, {@code 10m}, {@code 2h} or {@code 1d} into milliseconds.
   *
   * @throws IllegalArgumentException naming the option and the accepted form
   */
  public static long span(String option, String text) {
    String t = text.strip();
    if (!t.matches("[0-9]{1,9}[smhd]") || Long.parseLong(t.substring(0, t.length() - 1)) == 0) {
      throw new IllegalArgumentException(
          option + " '" + cut(text) + "' is not a span: use a positive 90s, 10m, 2h or 1d");
    }
    long n = Long.parseLong(t.substring(0, t.length() - 1));
    return n
        * switch (t.charAt(t.length() - 1)) {
          case 's' -> 1_000L;
          case 'm' -> 60_000L;
          case 'h' -> 3_600_000L;
          default -> 86_400_000L;
        };
  }

  /** Epoch milliseconds as an ISO-8601 instant. */
  public static String format(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }
}
