package org.netweather.forecaster.battery.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The evaluation of a directory of traces: one {@link SeriesReport} per trace and geometric means
 * of every ratio over all of them.
 *
 * @param series per-series reports, ordered by name
 * @param summary geometric means of the headline ratios: {@code served}, {@code faithful}, {@code
 *     hindsight}, {@code oracle}, and also {@code servedMse}, {@code faithfulMse}, {@code
 *     faithfulOracle}, plus {@code worstServedOverFaithful}, the largest per-series ratio served /
 *     faithful (above 1 means served was worse there), {@code requestedCoverage}, {@code coverage}
 *     (the mean over series of the share of measurements inside the served interval), {@code width}
 *     (its mean width over last value's MAE, geometric mean) and {@code worstCoverageError} (the
 *     largest per-series |coverage - requested|)
 * @param predictors geometric mean ratio per member predictor
 * @param faithfulSelectors geometric mean ratio per NWS selector
 * @param extendedSelectors geometric mean ratio per selector over all members
 */
public record EvaluationReport(
    List<SeriesReport> series,
    Map<String, Double> summary,
    Map<String, Double> predictors,
    Map<String, Double> faithfulSelectors,
    Map<String, Double> extendedSelectors) {

  static EvaluationReport of(List<SeriesReport> series) {
    Map<String, Double> summary = new LinkedHashMap<>();
    summary.put("served", geomean(series, SeriesReport::served));
    summary.put("faithful", geomean(series, SeriesReport::faithful));
    summary.put("hindsight", geomean(series, SeriesReport::hindsight));
    summary.put("oracle", geomean(series, SeriesReport::oracle));
    summary.put("servedMse", geomean(series, SeriesReport::servedMse));
    summary.put("faithfulMse", geomean(series, SeriesReport::faithfulMse));
    summary.put("faithfulOracle", geomean(series, SeriesReport::faithfulOracle));
    double worst = Double.NaN;
    for (SeriesReport s : series) {
      double r = s.served() / s.faithful();
      if (Double.isNaN(worst) || r > worst) {
        worst = r;
      }
    }
    summary.put("worstServedOverFaithful", worst);
    // Coverage is a fraction, averaged plainly; the width is a ratio like the others.
    summary.put(
        "requestedCoverage", series.isEmpty() ? Double.NaN : series.get(0).requestedCoverage());
    summary.put(
        "coverage",
        series.stream()
            .mapToDouble(SeriesReport::coverage)
            .filter(Double::isFinite)
            .average()
            .orElse(Double.NaN));
    summary.put("width", geomean(series, SeriesReport::width));
    double worstCoverage = Double.NaN;
    for (SeriesReport s : series) {
      double off = Math.abs(s.coverage() - s.requestedCoverage());
      if (Double.isNaN(worstCoverage) || off > worstCoverage) {
        worstCoverage = off;
      }
    }
    summary.put("worstCoverageError", worstCoverage);
    return new EvaluationReport(
        List.copyOf(series),
        summary,
        geomeans(series, SeriesReport::predictors),
        geomeans(series, SeriesReport::faithfulSelectors),
        geomeans(series, SeriesReport::extendedSelectors));
  }

  /** A tree of maps, lists, strings and numbers for a JSON writer. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("summary", new LinkedHashMap<>(summary));
    m.put("predictors", new LinkedHashMap<>(predictors));
    m.put("faithfulSelectors", new LinkedHashMap<>(faithfulSelectors));
    m.put("extendedSelectors", new LinkedHashMap<>(extendedSelectors));
    List<Object> list = new ArrayList<>();
    for (SeriesReport s : series) {
      list.add(s.toMap());
    }
    m.put("series", list);
    return m;
  }

  /**
   * Geometric mean over series of the finite, positive values; NaN if there are none. A series
   * whose last-value error is zero (a constant trace) has no ratio and is left out.
   */
  static double geomean(List<SeriesReport> series, ToDoubleFunction<SeriesReport> ratio) {
    double logSum = 0;
    int n = 0;
    for (SeriesReport s : series) {
      double r = ratio.applyAsDouble(s);
      if (r > 0 && Double.isFinite(r)) {
        logSum += Math.log(r);
        n++;
      }
    }
    return n == 0 ? Double.NaN : Math.exp(logSum / n);
  }

  private static Map<String, Double> geomeans(
      List<SeriesReport> series,
      java.util.function.Function<SeriesReport, Map<String, Double>> table) {
    Map<String, Double> out = new LinkedHashMap<>();
    if (series.isEmpty()) {
      return out;
    }
    for (String key : table.apply(series.get(0)).keySet()) {
      out.put(key, geomean(series, s -> table.apply(s).getOrDefault(key, Double.NaN)));
    }
    return out;
  }
}
