package org.netweather.model;

import java.util.regex.Pattern;

/**
 * A series name with {@code *} wildcards, e.g. {@code tcp.bandwidth:alpha->*}; {@code *} matches
 * any run of characters. A pattern without {@code *} matches exactly one name.
 */
public final class SeriesPattern {
  private final String text;
  private final Pattern regex; // null for an exact name

  private SeriesPattern(String text, Pattern regex) {
    this.text = text;
    this.regex = regex;
  }

  /**
   * Parses a pattern.
   *
   * @throws IllegalArgumentException if it holds characters no series name can
   */
  public static SeriesPattern parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("pattern is empty");
    }
    if (text.length() > SeriesName.MAX_LENGTH) {
      throw new IllegalArgumentException("pattern is longer than " + SeriesName.MAX_LENGTH);
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!SeriesName.isNameChar(c) && c != '*' && c != ':' && c != '-' && c != '>') {
        throw new IllegalArgumentException(
            "pattern '" + text + "' has '" + c + "', which no series name can hold");
      }
    }
    if (text.indexOf('*') < 0) {
      return new SeriesPattern(text, null);
    }
    return new SeriesPattern(text, Pattern.compile(globToRegex(text)));
  }

  /** A glob as a regular expression: {@code *} is any run, everything else literal. */
  public static String globToRegex(String glob) {
    StringBuilder sb = new StringBuilder();
    int start = 0;
    for (int i = 0; i < glob.length(); i++) {
      if (glob.charAt(i) == '*') {
        if (i > start) {
          sb.append(Pattern.quote(glob.substring(start, i)));
        }
        sb.append(".*");
        start = i + 1;
      }
    }
    if (start < glob.length()) {
      sb.append(Pattern.quote(glob.substring(start)));
    }
    return sb.toString();
  }

  public boolean isExact() {
    return regex == null;
  }

  public boolean matches(String series) {
    return regex == null ? text.equals(series) : regex.matcher(series).matches();
  }

  @Override
  public String toString() {
    return text;
  }
}
