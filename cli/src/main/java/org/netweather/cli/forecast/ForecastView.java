package org.netweather.cli.forecast;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netweather.api.v1.Forecast;
import org.netweather.cli.output.Output;
import org.netweather.cli.output.TimeArgs;

/** How {@code nws forecast} shows forecasts: a table, or JSON objects with numeric fields. */
public final class ForecastView {
  private ForecastView() {}

  /** A forecast as a JSON-ready map: value, mse, mae, method, count, interval, last. */
  public static Map<String, Object> toMap(Forecast f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("series", f.getSeries());
    m.put("value", f.getValue());
    m.put("mse", f.getMse());
    m.put("mae", f.getMae());
    m.put("method", f.getMethod());
    m.put("count", f.getCount());
    m.put(
        "criterion",
        f.getCriterion() == org.netweather.api.v1.Criterion.CRITERION_MAE ? "mae" : "mse");
    if (f.hasInterval()) {
      Map<String, Object> i = new LinkedHashMap<>();
      i.put("lower", f.getInterval().getLower());
      i.put("upper", f.getInterval().getUpper());
      i.put("confidence", f.getInterval().getConfidence());
      m.put("interval", i);
    }
    if (f.getHorizonSteps() > 0) {
      m.put("horizon_ms", f.getHorizonMs());
      m.put("horizon_steps", f.getHorizonSteps());
    }
    if (f.hasLast()) {
      Map<String, Object> l = new LinkedHashMap<>();
      l.put("timestamp_ms", f.getLast().getTimestampMs());
      l.put("value", f.getLast().getValue());
      m.put("last", l);
    }
    return m;
  }

  public static void table(List<Forecast> forecasts, PrintWriter out) {
    double coverage =
        forecasts.stream()
            .filter(Forecast::hasInterval)
            .mapToDouble(f -> f.getInterval().getConfidence())
            .findFirst()
            .orElse(0.90);
    Output.Table t =
        new Output.Table(
            "SERIES",
            "FORECAST",
            String.format(java.util.Locale.ROOT, "INTERVAL (%.0f%%)", 100 * coverage),
            "MSE",
            "MAE",
            "METHOD",
            "COUNT",
            "LAST");
    for (Forecast f : forecasts) {
      t.row(
          f.getHorizonSteps() > 0
              ? f.getSeries() + " (mean of next " + f.getHorizonSteps() + ")"
              : f.getSeries(),
          Output.number(f.getValue()),
          f.hasInterval()
              ? "["
                  + Output.number(f.getInterval().getLower())
                  + ", "
                  + Output.number(f.getInterval().getUpper())
                  + "]"
              : "-",
          Output.number(f.getMse()),
          Output.number(f.getMae()),
          f.getMethod(),
          f.getCount(),
          f.hasLast() ? TimeArgs.format(f.getLast().getTimestampMs()) : "-");
    }
    t.print(out);
  }
}
