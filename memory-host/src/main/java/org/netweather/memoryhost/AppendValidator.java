package org.netweather.memoryhost;

import java.util.List;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.model.SeriesName;

/**
 * Checks an append before anything is stored, so a bad batch changes nothing. Messages name the
 * batch, the series and the field.
 */
final class AppendValidator {
  static final int MAX_POINTS = 10_000;
  static final long MAX_FUTURE_MS = 60_000;

  private AppendValidator() {}

  /** Returns the number of points, or throws {@link IllegalArgumentException}. */
  static int validate(List<SeriesPoints> batches, long nowMs) {
    if (batches.isEmpty()) {
      throw new IllegalArgumentException("batches is empty");
    }
    int total = 0;
    for (int b = 0; b < batches.size(); b++) {
      SeriesPoints sp = batches.get(b);
      String where = "batches[" + b + "]";
      String problem = SeriesName.problem(sp.getSeries());
      if (problem != null) {
        throw new IllegalArgumentException(where + ".series: " + problem);
      }
      if (sp.getPointsCount() == 0) {
        throw new IllegalArgumentException(
            where + ".points is empty (series " + sp.getSeries() + ")");
      }
      total += sp.getPointsCount();
      if (total > MAX_POINTS) {
        throw new IllegalArgumentException(
            "batch holds more than " + MAX_POINTS + " points; split it");
      }
      SeriesName name = SeriesName.parse(sp.getSeries());
      for (int i = 0; i < sp.getPointsCount(); i++) {
        Measurement m = sp.getPoints(i);
        String at = where + ".points[" + i + "] of " + sp.getSeries();
        if (m.getTimestampMs() <= 0) {
          throw new IllegalArgumentException(
              at + ": timestamp_ms " + m.getTimestampMs() + " must be positive");
        }
        if (m.getTimestampMs() > nowMs + MAX_FUTURE_MS) {
          throw new IllegalArgumentException(
              at
                  + ": timestamp_ms "
                  + m.getTimestampMs()
                  + " is "
                  + String.format(
                      java.util.Locale.ROOT, "%.3f", (m.getTimestampMs() - nowMs) / 1000.0)
                  + " s in the future (at most "
                  + MAX_FUTURE_MS / 1000
                  + " s allowed)");
        }
        String bad = name.checkValue(m.getValue());
        if (bad != null) {
          throw new IllegalArgumentException(at + ": value " + m.getValue() + " " + bad);
        }
      }
    }
    return total;
  }
}
