package org.netweather.cli.query;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code nws status} reads from a daemon's {@code /metrics}: the counts of data lost to damage
 * and, for a sensor, its clock offset. A process serving several daemons ({@code nws up}) has one
 * endpoint; each daemon's samples carry its {@code daemon} label, so only those are taken.
 */
final class DaemonMetrics {
  /** Metric names (as the text format spells them) and the keys {@code nws status} shows. */
  static final Map<String, String> DAMAGE =
      Map.of(
          "netweather_memory_damaged_series", "damaged_series",
          "netweather_memory_damaged_reads", "damaged_reads",
          "netweather_nameserver_journal_damaged_records", "journal_damaged_records",
          "netweather_sensor_spool_dropped_measurements_total", "spool_dropped");

  static final String CLOCK_OFFSET = "netweather_sensor_clock_offset_seconds";
  static final String REFUSED = "netweather_sensor_refused_measurements_total";

  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  private final HttpClient http;
  private final Duration timeout;

  DaemonMetrics(Duration timeout) {
    this.timeout = timeout;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
  }

  /**
   * Reads {@code http://address/metrics} and returns the samples of {@code daemon}: the damage
   * counts under their keys (all of them, zero when absent), {@code clock_offset_seconds} when the
   * daemon reports one, and {@code refused} by reason when any.
   *
   * @throws IOException when the endpoint does not answer 200 in time, naming the address
   */
  Map<String, Object> read(String address, String daemon) throws IOException {
    String text;
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://" + address + "/metrics"))
                  .timeout(timeout)
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IOException("http://" + address + "/metrics answered " + r.statusCode());
      }
      text = r.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted reading http://" + address + "/metrics", e);
    } catch (IllegalArgumentException e) {
      throw new IOException("not an address for metrics: " + address, e);
    }
    return parse(text, daemon);
  }

  /** The samples of {@code daemon} in {@code text} (the Prometheus text format). */
  static Map<String, Object> parse(String text, String daemon) {
    Map<String, Object> out = new LinkedHashMap<>();
    DAMAGE.values().stream().sorted().forEach(k -> out.put(k, 0L));
    Map<String, Long> refused = new LinkedHashMap<>();
    for (String line : (Iterable<String>) text.lines()::iterator) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.indexOf(' ');
      if (space < 0) {
        continue;
      }
      String name =
          brace >= 0 && brace < space ? line.substring(0, brace) : line.substring(0, space);
      String labels = "";
      String rest = line.substring(space + 1);
      if (brace >= 0 && brace < space) {
        int close = line.lastIndexOf('}');
        if (close < brace) {
          continue;
        }
        labels = line.substring(brace + 1, close);
        rest = line.substring(close + 1);
      }
      Map<String, String> l = labels(labels);
      if (!daemon.equals(l.get("daemon"))) {
        continue;
      }
      double value;
      try {
        String v = rest.strip();
        int end = v.indexOf(' ');
        value = Double.parseDouble(end < 0 ? v : v.substring(0, end));
      } catch (NumberFormatException e) {
        continue;
      }
      String key = DAMAGE.get(name);
      if (key != null) {
        out.put(key, (long) value);
      } else if (name.equals(CLOCK_OFFSET)) {
        out.put("clock_offset_seconds", value);
      } else if (name.equals(REFUSED) && value > 0) {
        refused.put(l.getOrDefault("reason", ""), (long) value);
      }
    }
    if (!refused.isEmpty()) {
      out.put("refused", refused);
    }
    return out;
  }

  private static Map<String, String> labels(String labels) {
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m = LABEL.matcher(labels);
    while (m.find()) {
      out.put(m.group(1), m.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    return out;
  }
}
