package org.netweather.client;

/** Building nameserver search filters ({@code (&(kind=sensor)(host=alpha))}) from values. */
public final class Filters {
  private Filters() {}

  /** A value inside a filter comparison: the filter syntax's own characters escaped. */
  public static String escape(String value) {
    StringBuilder b = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '(' || c == ')' || c == '*' || c == '\\') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }
}
