package org.netweather.forecaster.battery.evaluation;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One series' evaluation: mean absolute one-step error of everything in the battery, each divided
 * by the last-value predictor's (so 1.0 = no better than last value, lower is better).
 *
 * @param name the trace name
 * @param points measurements in the trace
 * @param scored measurements scored (those after the warm-up)
 * @param lastValueMae mean absolute error of the last-value predictor, the denominator
 * @param predictors ratio per member predictor, in battery order
 * @param faithfulSelectors ratio per NWS selector over the 18 primaries ("min-mse", ...)
 * @param extendedSelectors ratio per selector over all members
 * @param served ratio of the served forecast (MAE criterion)
 * @param servedMse ratio of the served forecast chosen by the MSE criterion
 * @param faithful ratio of the NWS battery alone ("Total MAE")
 * @param faithfulMse ratio of NWS "Total MSE"
 * @param hindsight ratio of the best of the faithful primaries, chosen after the fact
 * @param hindsightMethod which primary that was
 * @param oracle ratio of the per-step oracle over all members
 * @param faithfulOracle ratio of the per-step oracle over the faithful primaries
 * @param requestedCoverage the coverage the intervals were asked for, e.g. 0.90
 * @param coverage fraction of scored measurements inside the served (MSE) forecast's interval
 * @param width mean width of that interval, divided by the last-value predictor's MAE
 * @param servedVersusLast the Diebold-Mariano statistic of the served forecast's absolute errors
 *     against last value's ({@link DieboldMariano}): below -1.96 served is better beyond noise,
 *     above 1.96 worse, in between the trace cannot tell them apart
 */
public record SeriesReport(
    String name,
    int points,
    int scored,
    double lastValueMae,
    Map<String, Double> predictors,
    Map<String, Double> faithfulSelectors,
    Map<String, Double> extendedSelectors,
    double served,
    double servedMse,
    double faithful,
    double faithfulMse,
    double hindsight,
    String hindsightMethod,
    double oracle,
    double faithfulOracle,
    double requestedCoverage,
    double coverage,
    double width,
    double servedVersusLast) {

  /** Whether the served forecast and last value are within noise of each other on this trace. */
  public boolean servedWithinNoiseOfLast() {
    return !(Math.abs(servedVersusLast) >= DieboldMariano.NOISE);
  }

  /** A tree of maps, lists, strings and numbers for a JSON writer; keys in a stable order. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("points", points);
    m.put("scored", scored);
    m.put("lastValueMae", lastValueMae);
    m.put("served", served);
    m.put("servedMse", servedMse);
    m.put("faithful", faithful);
    m.put("faithfulMse", faithfulMse);
    m.put("hindsight", hindsight);
    m.put("hindsightMethod", hindsightMethod);
    m.put("oracle", oracle);
    m.put("faithfulOracle", faithfulOracle);
    m.put("requestedCoverage", requestedCoverage);
    m.put("coverage", coverage);
    m.put("width", width);
    m.put("servedVersusLast", servedVersusLast);
    m.put("servedWithinNoiseOfLast", servedWithinNoiseOfLast());
    m.put("predictors", new LinkedHashMap<>(predictors));
    m.put("faithfulSelectors", new LinkedHashMap<>(faithfulSelectors));
    m.put("extendedSelectors", new LinkedHashMap<>(extendedSelectors));
    return m;
  }
}
