package org.netweather.cli.web;

import java.util.List;
import java.util.Locale;
import org.netweather.api.v1.Measurement;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.ForecastReplay;
import org.netweather.forecaster.battery.ForecastResult;
import org.netweather.forecaster.battery.PhysicalRange;
import org.netweather.model.Resource;

/**
 * A series page's data as JSON: the measurements, and for each the forecast made one step before
 * with its interval (the forecaster's default coverage, clipped to the resource's range), the
 * method that served it and its absolute error; the same replay as {@code nws plot} ({@link
 * ForecastReplay}). Then the headline: the forecast of the next value, its interval and method, and
 * how old the last measurement is.
 */
final class SeriesData {
  private SeriesData() {}

  static String json(String series, Resource resource, List<Measurement> points, long nowMs) {
    String unit = resource == null ? "" : resource.unit();
    StringBuilder t = new StringBuilder();
    StringBuilder v = new StringBuilder();
    StringBuilder f = new StringBuilder();
    StringBuilder lo = new StringBuilder();
    StringBuilder hi = new StringBuilder();
    StringBuilder err = new StringBuilder();
    StringBuilder changes = new StringBuilder();
    double[] values = new double[points.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = points.get(i).getValue();
    }
    ForecastResult[] served =
        ForecastReplay.oneStep(
            BatteryLayout.standard(),
            values,
            Criterion.MSE,
            Battery.DEFAULT_COVERAGE,
            resource == null ? PhysicalRange.UNBOUNDED : PhysicalRange.of(resource));
    String method = null;
    for (int i = 0; i < points.size(); i++) {
      Measurement m = points.get(i);
      String sep = i == 0 ? "" : ",";
      t.append(sep).append(m.getTimestampMs() / 1000.0);
      v.append(sep).append(num(m.getValue()));
      ForecastResult r = served[i];
      if (r == null) {
        f.append(sep).append("null");
        lo.append(sep).append("null");
        hi.append(sep).append("null");
        err.append(sep).append("null");
      } else {
        f.append(sep).append(num(r.value()));
        lo.append(sep).append(num(r.lower()));
        hi.append(sep).append(num(r.upper()));
        err.append(sep).append(num(Math.abs(m.getValue() - r.value())));
        if (!r.method().equals(method)) {
          changes
              .append(changes.length() == 0 ? "" : ",")
              .append("{\"t\":")
              .append(m.getTimestampMs() / 1000.0)
              .append(",\"method\":\"")
              .append(r.method())
              .append("\"}");
          method = r.method();
        }
      }
    }
    String next = "null";
    ForecastResult r = served[points.size()];
    if (r != null) {
      long lastMs = points.get(points.size() - 1).getTimestampMs();
      next =
          "{\"value\":"
              + num(r.value())
              + ",\"lower\":"
              + num(r.lower())
              + ",\"upper\":"
              + num(r.upper())
              + ",\"coverage\":"
              + Battery.DEFAULT_COVERAGE
              + ",\"method\":\""
              + r.method()
              + "\",\"lastMs\":"
              + lastMs
              + ",\"ageMs\":"
              + Math.max(0, nowMs - lastMs)
              + "}";
    }
    return "{\"series\":\""
        + series.replace("\"", "")
        + "\",\"unit\":\""
        + unit
        + "\",\"coverage\":"
        + Battery.DEFAULT_COVERAGE
        + ",\"t\":["
        + t
        + "],\"value\":["
        + v
        + "],\"forecast\":["
        + f
        + "],\"lower\":["
        + lo
        + "],\"upper\":["
        + hi
        + "],\"error\":["
        + err
        + "],\"methods\":["
        + changes
        + "],\"next\":"
        + next
        + "}";
  }

  private static String num(double d) {
    return Double.isFinite(d) ? String.format(Locale.ROOT, "%.6g", d) : "null";
  }
}
