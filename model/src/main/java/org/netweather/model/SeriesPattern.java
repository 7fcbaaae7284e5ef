package org.netweather.model;

import java.util.regex.Pattern;

/**
 * A series name with {@code *} wildcards, e.g. {@code tcp.bandwidth:alpha->*}; {@code *} matches
 * any run of characters. A pattern without {@code *} matches exactly one name.
 */
public final class SeriesPattern {
  private final String text;
  // The literal runs between the *s, for a pattern with at least one; null for an exact name.
  // Matched by hand, not by regular expression: a forecaster checks every update against every
  // watcher's patterns, and a proxy watches two patterns per host of its cluster.
  private final String[] literals;

  private SeriesPattern(String text, String[] literals) {
    this.text = text;
    this.literals = literals;
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
    return new SeriesPattern(text, text.split("\\*", -1));
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

  /** What every matching name starts with: the text before the first {@code *}. */
  public String literalPrefix() {
    return literals == null ? text : literals[0];
  }

  public boolean isExact() {
    return literals == null;
  }

  public boolean matches(String series) {
    if (literals == null) {
      return text.equals(series);
    }
    String first = literals[0];
    String last = literals[literals.length - 1];
    if (series.length() < first.length() + last.length()
        || !series.startsWith(first)
        || !series.endsWith(last)) {
      return false;
    }
    // Leftmost placement of each middle run is enough: * absorbs whatever lies between.
    int at = first.length();
    int end = series.length() - last.length();
    for (int i = 1; i < literals.length - 1; i++) {
      int found = series.indexOf(literals[i], at);
      if (found < 0 || found + literals[i].length() > end) {
        return false;
      }
      at = found + literals[i].length();
    }
    return true;
  }

  @Override
  public String toString() {
    return text;
  }
}
