package org.netweather.cli.forecast;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.Output;
import org.netweather.cli.output.TimeArgs;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.evaluation.Evaluation;
import org.netweather.forecaster.battery.evaluation.EvaluationReport;
import org.netweather.forecaster.battery.evaluation.HorizonEvaluation;
import org.netweather.forecaster.battery.evaluation.SeriesReport;
import org.netweather.forecaster.battery.evaluation.Trace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nws evaluate DIR}: the battery one step ahead over every CSV trace in DIR. */
@Command(
    name = "evaluate",
    description =
        "Run the forecasting battery one step ahead over every "
            + "CSV trace in DIR and report each method's MAE relative to last value's.")
public final class EvaluateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "DIR",
      description = "A directory of CSV traces (header timestamp,value), e.g. examples/traces.")
  Path dir;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  @Option(
      names = "--coverage",
      paramLabel = "PERCENT",
      defaultValue = "90",
      description =
          "Check the served forecast's interval at this coverage, 50-99 (default: ${DEFAULT-VALUE}).")
  double coveragePercent;

  @Option(
      names = "--horizon",
      paramLabel = "SPAN",
      description =
          "Score forecasts of the mean over the next SPAN (90s, 10m, 2h, 1d) against the mean of"
              + " what followed, instead of one-step forecasts.")
  String horizon;

  /** "better (z -43.9)", "within noise (z 1.17)" or "worse (z 2.50)". */
  static String versusLast(SeriesReport s) {
    double z = s.servedVersusLast();
    if (Double.isNaN(z)) {
      return "-";
    }
    String verdict = s.servedWithinNoiseOfLast() ? "within noise" : z < 0 ? "better" : "worse";
    return verdict + String.format(Locale.ROOT, " (z %.2f)", z);
  }

  /**
   * Says in words what a SERVED above 1 means on short or random-walk-like traces: a ratio a little
   * over 1 that the trace cannot tell from 1 is not a served forecast worse than last value.
   */
  private void noise(List<String> withinNoise, List<String> worse, int traces) {
    var out = spec.commandLine().getOut();
    if (!withinNoise.isEmpty()) {
      out.println(
          "served forecast within noise of last value on "
              + withinNoise.size()
              + " of "
              + traces
              + " traces ("
              + String.join(", ", withinNoise)
              + "): there SERVED differs from 1 by less than the trace can tell apart"
              + " (docs/forecasting.md, Evaluation)");
    }
    if (!worse.isEmpty()) {
      out.println(
          "served forecast worse than last value beyond noise on: " + String.join(", ", worse));
    }
  }

  @Override
  public Integer call() throws Exception {
    if (!Files.exists(dir)) {
      throw new IllegalArgumentException(dir + ": no such directory");
    }
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException(
          dir + " is not a directory (nws forecast --file " + "reads one trace)");
    }
    if (!(coveragePercent >= 50 && coveragePercent <= 99)) {
      throw new IllegalArgumentException(
          "--coverage must be a percentage from 50 to 99: " + coveragePercent);
    }
    if (horizon != null) {
      return horizon(TimeArgs.span("--horizon", horizon));
    }
    EvaluationReport report =
        new Evaluation(BatteryLayout.standard(), Evaluation.DEFAULT_WARMUP, coveragePercent / 100)
            .run(dir);
    if (json) {
      spec.commandLine().getOut().println(JsonWriter.write(report.toMap()));
    } else {
      Output.Table t =
          new Output.Table(
              "SERIES",
              "POINTS",
              "SERVED",
              "FAITHFUL",
              "HINDSIGHT",
              "ORACLE",
              "COVERAGE",
              "WIDTH",
              "BEST FAITHFUL",
              "SERVED VS LAST");
      List<String> withinNoise = new ArrayList<>();
      List<String> worse = new ArrayList<>();
      for (SeriesReport s : report.series()) {
        if (s.servedWithinNoiseOfLast()) {
          withinNoise.add(s.name());
        } else if (s.servedVersusLast() > 0) {
          worse.add(s.name());
        }
        t.row(
            s.name(),
            s.points(),
            f(s.served()),
            f(s.faithful()),
            f(s.hindsight()),
            f(s.oracle()),
            f(s.coverage()),
            f(s.width()),
            s.hindsightMethod(),
            versusLast(s));
      }
      t.row(
          "geometric mean",
          "",
          f(report.summary().get("served")),
          f(report.summary().get("faithful")),
          f(report.summary().get("hindsight")),
          f(report.summary().get("oracle")),
          f(report.summary().get("coverage")),
          f(report.summary().get("width")),
          "",
          "");
      t.print(spec.commandLine().getOut());
      spec.commandLine()
          .getOut()
          .println(
              String.format(
                  Locale.ROOT,
                  "(MAE of each, divided by last value's MAE; COVERAGE: share of measurements"
                      + " inside the served forecast's %.0f %% interval (the mean over series),"
                      + " WIDTH: its mean width over last value's MAE; SERVED VS LAST: the"
                      + " Diebold-Mariano z of served against last value, within noise when"
                      + " |z| < 1.96)",
                  coveragePercent));
      noise(withinNoise, worse, report.series().size());
    }
    spec.commandLine().getOut().flush();
    return 0;
  }

  private int horizon(long horizonMs) throws Exception {
    HorizonEvaluation evaluation =
        new HorizonEvaluation(
            BatteryLayout.standard(), Evaluation.DEFAULT_WARMUP, coveragePercent / 100, horizonMs);
    List<HorizonEvaluation.Result> results = new ArrayList<>();
    for (Trace trace : Evaluation.traces(dir)) {
      results.add(evaluation.evaluate(trace));
    }
    double horizonLog = 0;
    double flatLog = 0;
    double coverage = 0;
    double widthLog = 0;
    for (HorizonEvaluation.Result r : results) {
      horizonLog += Math.log(r.horizon());
      flatLog += Math.log(r.flat());
      coverage += r.coverage();
      widthLog += Math.log(r.width());
    }
    int n = results.size();
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("horizonMs", horizonMs);
    summary.put("requestedCoverage", coveragePercent / 100);
    summary.put("horizon", Math.exp(horizonLog / n));
    summary.put("flat", Math.exp(flatLog / n));
    summary.put("coverage", coverage / n);
    summary.put("width", Math.exp(widthLog / n));
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("summary", summary);
      List<Object> series = new ArrayList<>();
      for (HorizonEvaluation.Result r : results) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", r.name());
        m.put("steps", r.steps());
        m.put("scored", r.scored());
        m.put("horizon", r.horizon());
        m.put("flat", r.flat());
        m.put("coverage", r.coverage());
        m.put("width", r.width());
        series.add(m);
      }
      doc.put("series", series);
      out.println(JsonWriter.write(doc));
    } else {
      Output.Table t =
          new Output.Table("SERIES", "STEPS", "SCORED", "HORIZON", "FLAT", "COVERAGE", "WIDTH");
      for (HorizonEvaluation.Result r : results) {
        t.row(
            r.name(),
            r.steps(),
            r.scored(),
            f(r.horizon()),
            f(r.flat()),
            f(r.coverage()),
            f(r.width()));
      }
      t.row(
          "geometric mean",
          "",
          "",
          f((Double) summary.get("horizon")),
          f((Double) summary.get("flat")),
          f((Double) summary.get("coverage")),
          f((Double) summary.get("width")));
      t.print(out);
      out.println(
          String.format(
              Locale.ROOT,
              "(mean over the next %s: MAE of the horizon forecast and of the one-step forecast"
                  + " taken as flat, each over last value's; COVERAGE: share of horizon means inside"
                  + " the %.0f %% interval, WIDTH: its mean width over last value's MAE)",
              horizon,
              coveragePercent));
    }
    out.flush();
    return 0;
  }

  private static String f(Double v) {
    return String.format(Locale.ROOT, "%.4f", v);
  }
}
