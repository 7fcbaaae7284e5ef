package org.netweather.cli.forecast;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.PhysicalRange;
import org.netweather.model.Resource;
import picocli.CommandLine.Option;

/**
 * The interval options {@code nws forecast} and {@code nws plot} share, so both show the interval
 * the forecaster serves: its coverage (90 % unless asked, as the forecaster's default) and, for a
 * CSV trace, the resource whose physical range bounds it.
 */
public final class IntervalOptions {
  @Option(
      names = "--coverage",
      paramLabel = "PERCENT",
      description =
          "Coverage of the interval, 50-99: the share of measurements it is meant to hold"
              + " (default: 90; for a live series, the forecaster's coverage setting).")
  Double coveragePercent;

  @Option(
      names = "--resource",
      paramLabel = "RESOURCE",
      description =
          "For --file: what the trace measures (cpu.availability, memory.free, tcp.bandwidth,"
              + " ...), whose valid range bounds the forecast and its interval. Default: the"
              + " resource in the file's name (cpu.availability:alpha.csv), else none.")
  String resource;

  /**
   * The coverage asked for as a fraction, or 0 if none was (the forecaster then uses its setting).
   *
   * @throws IllegalArgumentException naming --coverage if it is outside 50-99
   */
  public double requested() {
    if (coveragePercent == null) {
      return 0;
    }
    if (!(coveragePercent >= 50 && coveragePercent <= 99)) {
      throw new IllegalArgumentException(
          "--coverage must be a percentage from 50 to 99: " + coveragePercent);
    }
    return coveragePercent / 100;
  }

  /** The coverage for an interval computed here: the one asked for, else the default 90 %. */
  public double coverage() {
    double c = requested();
    return c == 0 ? Battery.DEFAULT_COVERAGE : c;
  }

  /**
   * The range that bounds a trace's forecasts: {@code --resource}'s if given, else that of the
   * resource the trace's name starts with, else none.
   *
   * @throws IllegalArgumentException if {@code --resource} names no known resource
   */
  public PhysicalRange rangeFor(String traceName) {
    if (resource == null) {
      return PhysicalRange.ofName(traceName);
    }
    return Resource.of(resource)
        .map(PhysicalRange::of)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "--resource '"
                        + resource
                        + "' is not a known resource; one of "
                        + Arrays.stream(Resource.values())
                            .map(Resource::id)
                            .collect(Collectors.joining(", "))));
  }

  /** "90 %" for 0.90, as every command labels an interval. */
  public static String percent(double coverage) {
    String s = String.format(Locale.ROOT, "%.1f", 100 * coverage);
    return (s.endsWith(".0") ? s.substring(0, s.length() - 2) : s) + " %";
  }
}
