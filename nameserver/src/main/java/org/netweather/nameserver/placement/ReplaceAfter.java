package org.netweather.nameserver.placement;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code placementReplaceAfter} setting: a whole number with a unit, {@code 90s}, {@code 1h}.
 */
public final class ReplaceAfter {
  private static final Pattern TEXT = Pattern.compile("([0-9]{1,9})(s|m|h|d)");

  /**
   * Shorter than this and a restart or a network hiccup would move shards, which is what the
   * setting exists to prevent.
   */
  static final Duration MIN = Duration.ofMinutes(1);

  private ReplaceAfter() {}

  /** What is wrong with {@code text}, or null if nothing. */
  public static String problem(String text) {
    Matcher m = TEXT.matcher(text == null ? "" : text.strip());
    if (!m.matches()) {
      return "'" + text + "' is not a duration: a whole number with s, m, h or d (90s, 10m, 1h)";
    }
    if (of(m).compareTo(MIN) < 0) {
      return text + " is shorter than 1m: a restart would move shards";
    }
    return null;
  }

  /**
   * Reads the setting.
   *
   * @throws IllegalArgumentException saying what is wrong with {@code text}
   */
  public static Duration parse(String text) {
    String p = problem(text);
    if (p != null) {
      throw new IllegalArgumentException("placementReplaceAfter " + p);
    }
    Matcher m = TEXT.matcher(text.strip());
    m.matches();
    return of(m);
  }

  private static Duration of(Matcher m) {
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }
}
