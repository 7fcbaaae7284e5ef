package org.netweather.cli.forecast;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.Output;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.evaluation.Evaluation;
import org.netweather.forecaster.battery.evaluation.EvaluationReport;
import org.netweather.forecaster.battery.evaluation.SeriesReport;
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
              "BEST FAITHFUL");
      for (SeriesReport s : report.series()) {
        t.row(
            s.name(),
            s.points(),
            f(s.served()),
            f(s.faithful()),
            f(s.hindsight()),
            f(s.oracle()),
            f(s.coverage()),
            f(s.width()),
            s.hindsightMethod());
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
          "");
      t.print(spec.commandLine().getOut());
      spec.commandLine()
          .getOut()
          .println(
              String.format(
                  Locale.ROOT,
                  "(MAE of each, divided by last value's MAE; COVERAGE: share of measurements"
                      + " inside the served forecast's %.0f %% interval (the mean over series),"
                      + " WIDTH: its mean width over last value's MAE)",
                  coveragePercent));
    }
    spec.commandLine().getOut().flush();
    return 0;
  }

  private static String f(Double v) {
    return String.format(Locale.ROOT, "%.4f", v);
  }
}
