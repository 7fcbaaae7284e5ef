package org.netweather.model;

import java.util.Map;
import java.util.Optional;

/**
 * A resource NetWeather knows: its name, unit, whether it is measured per host or per pair, and the
 * range a measurement must fall in. Other resource names are accepted as user series with no unit
 * and any finite value.
 */
public enum Resource {
  // Ranges are what the physical world allows, generously: a value outside is a broken sensor or a
  // forged write, and one such value would poison a series' forecasts (docs/measurement.md).
  CPU_AVAILABILITY("cpu.availability", "fraction", Scope.HOST, 0.0, 1.0),
  MEMORY_FREE("memory.free", "MiB", Scope.HOST, 0.0, 1e9), // a petabyte
  TCP_BANDWIDTH("tcp.bandwidth", "Mbit/s", Scope.PAIR, 0.0, 1e7), // 10 Tbit/s
  TCP_LATENCY("tcp.latency", "ms", Scope.PAIR, 0.0, 600_000.0), // ten minutes
  TCP_CONNECT("tcp.connect", "ms", Scope.PAIR, 0.0, 600_000.0),
  // Interference rates come from a least-squares slope, so noise can make them slightly negative.
  INTERFERENCE_SEND("interference.send", "fraction per MB/s", Scope.PAIR, -1e6, 1e6),
  INTERFERENCE_RECV("interference.recv", "fraction per MB/s", Scope.PAIR, -1e6, 1e6);

  /** Whether a resource is measured at one host or between an ordered pair. */
  public enum Scope {
    HOST,
    PAIR
  }

  private static final Map<String, Resource> BY_NAME =
      Map.of(
          CPU_AVAILABILITY.id, CPU_AVAILABILITY,
          MEMORY_FREE.id, MEMORY_FREE,
          TCP_BANDWIDTH.id, TCP_BANDWIDTH,
          TCP_LATENCY.id, TCP_LATENCY,
          TCP_CONNECT.id, TCP_CONNECT,
          INTERFERENCE_SEND.id, INTERFERENCE_SEND,
          INTERFERENCE_RECV.id, INTERFERENCE_RECV);

  private final String id;
  private final String unit;
  private final Scope scope;
  private final double min;
  private final double max;

  Resource(String id, String unit, Scope scope, double min, double max) {
    this.id = id;
    this.unit = unit;
    this.scope = scope;
    this.min = min;
    this.max = max;
  }

  /** The resource's name as it appears in series names, e.g. {@code tcp.bandwidth}. */
  public String id() {
    return id;
  }

  public String unit() {
    return unit;
  }

  public Scope scope() {
    return scope;
  }

  /** The smallest value a measurement of this resource may take. */
  public double min() {
    return min;
  }

  /** The largest value a measurement of this resource may take. */
  public double max() {
    return max;
  }

  /** The known resource with this name, if any. */
  public static Optional<Resource> of(String id) {
    return Optional.ofNullable(BY_NAME.get(id));
  }

  /** The unit of a resource name, or "" for a user series. */
  public static String unitOf(String id) {
    Resource r = BY_NAME.get(id);
    return r == null ? "" : r.unit;
  }

  /**
   * Checks a value for this resource and returns null if it is acceptable, otherwise a short reason
   * such as "must be in [0, 1]".
   */
  public String checkValue(double value) {
    if (!Double.isFinite(value)) {
      return "must be finite";
    }
    if (value < min || value > max) {
      return "must be in [" + fmt(min) + ", " + fmt(max) + "]" + (unit.isEmpty() ? "" : " " + unit);
    }
    return null;
  }

  /** The nearest value within this resource's range (NaN stays NaN). */
  public double clamp(double value) {
    return Math.max(min, Math.min(max, value));
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
