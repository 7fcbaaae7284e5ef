package org.netweather.cli.web;

import java.util.List;
import java.util.Locale;
import org.netweather.api.v1.Measurement;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.ForecastResult;
import org.netweather.model.Resource;

/**
 * A series page's data as JSON: the measurements, and for each the forecast made one step before
 * with its 95 % interval, the method that served it and its absolute error; the same replay as the
 * forecaster's battery. Then the headline: the forecast of the next value, its interval and method,
 * and how old the last measurement is. Bands are clipped to the resource's physical range.
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
    Battery battery = BatteryLayout.standard().newBattery();
    String method = null;
    for (int i = 0; i < points.size(); i++) {
      Measurement m = points.get(i);
      String sep = i == 0 ? "" : ",";
      t.append(sep).append(m.getTimestampMs() / 1000.0);
      v.append(sep).append(num(m.getValue()));
      if (battery.count() == 0) {
        f.append(sep).append("null");
        lo.append(sep).append("null");
        hi.append(sep).append("null");
        err.append(sep).append("null");
      } else {
        ForecastResult r = battery.forecast(Criterion.MSE, 0.95); // shown as the 95 % band
        f.append(sep).append(num(r.value()));
        lo.append(sep).append(num(clip(resource, r.lower())));
        hi.append(sep).append(num(clip(resource, r.upper())));
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
      battery.observe(m.getValue());
    }
    String next = "null";
    if (battery.count() > 0) {
      ForecastResult r = battery.forecast(Criterion.MSE, 0.95);
      long lastMs = points.get(points.size() - 1).getTimestampMs();
      next =
          "{\"value\":"
              + num(clip(resource, r.value()))
              + ",\"lower\":"
              + num(clip(resource, r.lower()))
              + ",\"upper\":"
              + num(clip(resource, r.upper()))
              + ",\"coverage\":0.95,\"method\":\""
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
        + "\",\"t\":["
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

  /** A band's edge within what the resource can physically be; a user series is not clipped. */
  private static double clip(Resource resource, double v) {
    return resource == null || Double.isNaN(v) ? v : resource.clamp(v);
  }

  private static String num(double d) {
    return Double.isFinite(d) ? String.format(Locale.ROOT, "%.6g", d) : "null";
  }
}
