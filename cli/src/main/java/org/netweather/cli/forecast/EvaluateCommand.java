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

  @Override
  public Integer call() throws Exception {
    if (!Files.exists(dir)) {
      throw new IllegalArgumentException(dir + ": no such directory");
    }
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException(
          dir + " is not a directory (nws forecast --file " + "reads one trace)");
    }
    EvaluationReport report = new Evaluation(BatteryLayout.standard()).run(dir);
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
              "COVER95",
              "WIDTH95",
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
          f(report.summary().get("coverage95")),
          f(report.summary().get("width95")),
          "");
      t.print(spec.commandLine().getOut());
      spec.commandLine()
          .getOut()
          .println(
              "(MAE of each, divided by last value's MAE; COVER95: share of measurements inside"
                  + " the served forecast's 95 % interval (the mean over series), WIDTH95: its mean"
                  + " width over last value's MAE)");
    }
    spec.commandLine().getOut().flush();
    return 0;
  }

  private static String f(Double v) {
    return String.format(Locale.ROOT, "%.4f", v);
  }
}
