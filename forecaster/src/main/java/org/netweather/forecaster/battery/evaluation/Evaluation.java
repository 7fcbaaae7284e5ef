package org.netweather.forecaster.battery.evaluation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.ForecastResult;

/**
 * Replays traces through a battery strictly one step ahead and measures how well everything in it
 * forecasts, relative to the last-value predictor.
 *
 * <p>The protocol of docs/forecasting.md: each forecast of measurement t is taken before the
 * battery sees t; the first {@code warmup} measurements (default 100) feed the battery but are not
 * scored; accuracy is MAE / MAE(last value) per series, aggregated as a geometric mean. "Hindsight"
 * is the best single faithful primary per series, picked after the run; "oracle" is the per-step
 * best member, an unreachable bound.
 *
 * <pre>{@code
 * EvaluationReport report = new Evaluation(BatteryLayout.standard()).run(Path.of("traces/nab"));
 * double served = report.summary().get("served");
 * }</pre>
 */
public final class Evaluation {
  /** Measurements fed before scoring starts, as in docs/forecasting.md. */
  public static final int DEFAULT_WARMUP = 100;

  private final BatteryLayout layout;
  private final int warmup;
  private final double coverage;

  public Evaluation(BatteryLayout layout) {
    this(layout, DEFAULT_WARMUP);
  }

  public Evaluation(BatteryLayout layout, int warmup) {
    this(layout, warmup, Battery.DEFAULT_COVERAGE);
  }

  /**
   * An evaluation that also checks the served forecast's interval at {@code coverage} (in [0.50,
   * 0.99]).
   */
  public Evaluation(BatteryLayout layout, int warmup, double coverage) {
    if (warmup < 0) {
      throw new IllegalArgumentException("warm-up must not be negative: " + warmup);
    }
    if (!(coverage >= 0.5 && coverage <= 0.99)) {
      throw new IllegalArgumentException("coverage must be in [0.50, 0.99]: " + coverage);
    }
    this.layout = layout;
    this.warmup = warmup;
    this.coverage = coverage;
  }

  /**
   * Evaluates every {@code *.csv} file directly in {@code directory}, in name order.
   *
   * @throws IllegalArgumentException if the directory holds no CSV file or a file is malformed
   */
  public EvaluationReport run(Path directory) throws IOException {
    return run(traces(directory));
  }

  /**
   * Reads every {@code *.csv} file directly in {@code directory}, in name order.
   *
   * @throws IllegalArgumentException if the directory holds no CSV file or a file is malformed
   */
  public static List<Trace> traces(Path directory) throws IOException {
    List<Path> files;
    try (Stream<Path> listing = Files.list(directory)) {
      files =
          listing
              .filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv"))
              .filter(Files::isRegularFile)
              .sorted()
              .toList();
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException(directory + ": no .csv traces found");
    }
    List<Trace> traces = new ArrayList<>();
    for (Path file : files) {
      traces.add(TraceReader.read(file));
    }
    return traces;
  }

  /** Evaluates the given traces. */
  public EvaluationReport run(List<Trace> traces) {
    List<SeriesReport> reports = new ArrayList<>(traces.size());
    for (Trace trace : traces) {
      reports.add(evaluate(trace));
    }
    return EvaluationReport.of(reports);
  }

  /** Evaluates one trace. */
  public SeriesReport evaluate(Trace trace) {
    Battery battery = layout.newBattery();
    int members = battery.memberCount();
    int rules = Battery.selectorCount();
    int lastValue = indexOf(battery, "last-value");
    // Absolute-error sums: members, faithful selectors, extended selectors, then the singles.
    double[] memberErr = new double[members];
    double[] faithfulErr = new double[rules];
    double[] extendedErr = new double[rules];
    double served = 0;
    double servedMse = 0;
    double faithful = 0;
    double faithfulMse = 0;
    double oracle = 0;
    double faithfulOracle = 0;
    int faithfulCount = layout.faithfulCount();
    int scored = 0;
    int intervals = 0;
    int covered = 0;
    double widths = 0;
    double[] values = trace.values();
    double[] servedMinusLast = new double[values.length]; // per scored step, for the noise test
    for (int t = 0; t < values.length; t++) {
      double x = values[t];
      if (t >= warmup && t > 0) {
        scored++;
        double best = Double.POSITIVE_INFINITY;
        double bestFaithful = Double.POSITIVE_INFINITY;
        for (int i = 0; i < members; i++) {
          double e = Math.abs(x - battery.memberForecast(i));
          memberErr[i] += e;
          best = Math.min(best, e);
          if (i < faithfulCount) {
            bestFaithful = Math.min(bestFaithful, e);
          }
        }
        oracle += best;
        faithfulOracle += bestFaithful;
        for (int j = 0; j < rules; j++) {
          faithfulErr[j] += Math.abs(x - battery.faithfulSelectorForecast(j));
          extendedErr[j] += Math.abs(x - battery.extendedSelectorForecast(j));
        }
        double servedError = Math.abs(x - battery.forecast(Criterion.MAE).value());
        served += servedError;
        servedMinusLast[scored - 1] = servedError - Math.abs(x - battery.memberForecast(lastValue));
        ForecastResult mse = battery.forecast(Criterion.MSE, coverage);
        servedMse += Math.abs(x - mse.value());
        if (Double.isFinite(mse.lower()) && Double.isFinite(mse.upper())) {
          intervals++;
          covered += mse.lower() <= x && x <= mse.upper() ? 1 : 0;
          widths += mse.upper() - mse.lower();
        }
        faithful += Math.abs(x - battery.faithfulForecast(Criterion.MAE).value());
        faithfulMse += Math.abs(x - battery.faithfulForecast(Criterion.MSE).value());
      }
      battery.observe(x);
    }
    double base = memberErr[lastValue];
    Map<String, Double> predictors = new LinkedHashMap<>();
    String hindsightMethod = "none";
    double hindsight = Double.POSITIVE_INFINITY;
    for (int i = 0; i < members; i++) {
      predictors.put(battery.memberName(i), memberErr[i] / base);
      if (i < faithfulCount && memberErr[i] < hindsight) {
        hindsight = memberErr[i];
        hindsightMethod = battery.memberName(i);
      }
    }
    Map<String, Double> faithfulSelectors = new LinkedHashMap<>();
    Map<String, Double> extendedSelectors = new LinkedHashMap<>();
    for (int j = 0; j < rules; j++) {
      faithfulSelectors.put(Battery.selectorName(j), faithfulErr[j] / base);
      extendedSelectors.put(Battery.selectorName(j), extendedErr[j] / base);
    }
    return new SeriesReport(
        trace.name(),
        values.length,
        scored,
        scored == 0 ? Double.NaN : base / scored,
        predictors,
        faithfulSelectors,
        extendedSelectors,
        served / base,
        servedMse / base,
        faithful / base,
        faithfulMse / base,
        hindsight / base,
        hindsightMethod,
        oracle / base,
        faithfulOracle / base,
        coverage,
        intervals == 0 ? Double.NaN : (double) covered / intervals,
        intervals == 0 ? Double.NaN : widths / intervals / (base / scored),
        DieboldMariano.statistic(servedMinusLast, scored));
  }

  private static int indexOf(Battery battery, String name) {
    for (int i = 0; i < battery.memberCount(); i++) {
      if (battery.memberName(i).equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException("evaluation needs a '" + name + "' member as yardstick");
  }
}
