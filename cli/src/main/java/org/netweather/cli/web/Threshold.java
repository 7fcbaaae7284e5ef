package org.netweather.cli.web;

import java.util.Locale;

/**
 * Where a resource's values turn from good to warning and from warning to critical, in the
 * resource's own unit, as MaDDash colours a check: when {@code critical < warning} low values are
 * the bad ones (bandwidth, CPU availability, free memory), otherwise high ones are (latency,
 * connect time). A value equal to a threshold is already in the worse state.
 */
record Threshold(double warning, double critical) {
  Threshold {
    if (!Double.isFinite(warning) || !Double.isFinite(critical)) {
      throw new IllegalArgumentException("thresholds must be finite numbers");
    }
    if (warning == critical) {
      throw new IllegalArgumentException(
          "warning and critical must differ (both "
              + warning
              + "): their order says which way is"
              + " bad");
    }
  }

  /** Parses {@code WARNING,CRITICAL}, e.g. {@code 100,10}. */
  static Threshold parse(String text) {
    String[] parts = text.split(",", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException(
          "expected WARNING,CRITICAL (two numbers, e.g. 100,10), got '" + text + "'");
    }
    try {
      return new Threshold(
          Double.parseDouble(parts[0].trim()), Double.parseDouble(parts[1].trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "expected WARNING,CRITICAL (two numbers, e.g. 100,10), got '" + text + "'", e);
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s,%s", plain(warning), plain(critical));
  }

  private static String plain(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }
}
