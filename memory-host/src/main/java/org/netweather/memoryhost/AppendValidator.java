package org.netweather.memoryhost;

import java.util.List;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.memoryhost.store.SeriesState;
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
    return validate(batches, new SeriesState[batches.size()], nowMs);
  }

  /**
   * As {@link #validate(List, long)}, with {@code known[b]} the stored series that batch {@code b}
   * names, or null: a stored series' name was checked when it was created, so only its values are
   * checked again. Messages are built only for a refusal, so a good append allocates nothing here.
   */
  static int validate(List<SeriesPoints> batches, SeriesState[] known, long nowMs) {
    if (batches.isEmpty()) {
      throw new IllegalArgumentException("batches is empty");
    }
    int total = 0;
    for (int b = 0; b < batches.size(); b++) {
      SeriesPoints sp = batches.get(b);
      SeriesName name;
      if (known[b] != null) {
        name = known[b].parsedName();
      } else {
        String problem = SeriesName.problem(sp.getSeries());
        if (problem != null) {
          throw new IllegalArgumentException("batches[" + b + "].series: " + problem);
        }
        name = SeriesName.parse(sp.getSeries());
      }
      int n = sp.getPointsCount();
      if (n == 0) {
        throw new IllegalArgumentException(
            "batches[" + b + "].points is empty (series " + sp.getSeries() + ")");
      }
      total += n;
      if (total > MAX_POINTS) {
        throw new IllegalArgumentException(
            "batch holds more than " + MAX_POINTS + " points; split it");
      }
      for (int i = 0; i < n; i++) {
        Measurement m = sp.getPoints(i);
        long t = m.getTimestampMs();
        if (t <= 0) {
          throw new IllegalArgumentException(
              at(b, i, sp) + ": timestamp_ms " + t + " must be positive");
        }
        if (t > nowMs + MAX_FUTURE_MS) {
          throw new IllegalArgumentException(
              at(b, i, sp)
                  + ": timestamp_ms "
                  + t
                  + " is "
                  + String.format(java.util.Locale.ROOT, "%.3f", (t - nowMs) / 1000.0)
                  + " s in the future (at most "
                  + MAX_FUTURE_MS / 1000
                  + " s allowed)");
        }
        String bad = name.checkValue(m.getValue());
        if (bad != null) {
          throw new IllegalArgumentException(at(b, i, sp) + ": value " + m.getValue() + " " + bad);
        }
      }
    }
    return total;
  }

  private static String at(int b, int i, SeriesPoints sp) {
    return "batches[" + b + "].points[" + i + "] of " + sp.getSeries();
  }
}
