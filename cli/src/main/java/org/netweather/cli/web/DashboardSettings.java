package org.netweather.cli.web;

import java.util.LinkedHashMap;
import java.util.Map;
import org.netweather.cli.output.JsonWriter;
import org.netweather.model.Resource;

/**
 * What the dashboard's pages need to know besides the site: the colour thresholds of each resource
 * and, from the model's resource catalogue, each resource's unit and physical range, handed to the
 * pages' scripts as one JSON document.
 *
 * <pre>{@code
 * DashboardSettings s = DashboardSettings.defaults()
 *     .with("tcp.bandwidth", Threshold.parse("1000,100"));
 * }</pre>
 */
public final class DashboardSettings {
  /** The thresholds used unless told otherwise; docs/dashboard.md lists them. */
  static final Map<String, Threshold> DEFAULTS =
      Map.of(
          Resource.TCP_BANDWIDTH.id(), new Threshold(100, 10),
          Resource.TCP_LATENCY.id(), new Threshold(5, 50),
          Resource.TCP_CONNECT.id(), new Threshold(10, 100),
          Resource.CPU_AVAILABILITY.id(), new Threshold(0.5, 0.2),
          Resource.MEMORY_FREE.id(), new Threshold(1024, 256));

  private final Map<String, Threshold> thresholds;

  private DashboardSettings(Map<String, Threshold> thresholds) {
    this.thresholds = Map.copyOf(thresholds);
  }

  public static DashboardSettings defaults() {
    return new DashboardSettings(DEFAULTS);
  }

  /** These settings with {@code resource}'s thresholds replaced. */
  DashboardSettings with(String resource, Threshold t) {
    if (Resource.of(resource).isEmpty()) {
      throw new IllegalArgumentException(
          "unknown resource '"
              + resource
              + "' for a threshold; known: "
              + String.join(", ", DEFAULTS.keySet().stream().sorted().toList()));
    }
    Map<String, Threshold> m = new LinkedHashMap<>(thresholds);
    m.put(resource, t);
    return new DashboardSettings(m);
  }

  /**
   * These settings with the thresholds of {@code RESOURCE=WARNING,CRITICAL} applied, as {@code nws
   * web --threshold} takes them.
   */
  public DashboardSettings withThreshold(String assignment) {
    int eq = assignment.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException(
          "--threshold expects RESOURCE=WARNING,CRITICAL (e.g. tcp.bandwidth=100,10), got '"
              + assignment
              + "'");
    }
    String resource = assignment.substring(0, eq).trim();
    try {
      return with(resource, Threshold.parse(assignment.substring(eq + 1)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--threshold " + assignment + ": " + e.getMessage(), e);
    }
  }

  Threshold threshold(String resource) {
    return thresholds.get(resource);
  }

  /**
   * {@code {"resources": {"tcp.bandwidth": {"unit": "Mbit/s", "min": 0, "max": 1e7, "warning": 100,
   * "critical": 10}, ...}}}: every known resource, thresholds where one is set.
   */
  String json() {
    Map<String, Object> resources = new LinkedHashMap<>();
    for (Resource r : Resource.values()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("unit", r.unit());
      // The catalogue's range, read through clamp: the nearest valid values to -inf and +inf.
      m.put("min", r.clamp(Double.NEGATIVE_INFINITY));
      m.put("max", r.clamp(Double.POSITIVE_INFINITY));
      Threshold t = thresholds.get(r.id());
      if (t != null) {
        m.put("warning", t.warning());
        m.put("critical", t.critical());
      }
      resources.put(r.id(), m);
    }
    return JsonWriter.write(Map.of("resources", resources));
  }
}
