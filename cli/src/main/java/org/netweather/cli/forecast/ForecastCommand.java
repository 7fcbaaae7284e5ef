package org.netweather.cli.forecast;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.TimeArgs;
import org.netweather.client.NetWeatherClient;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.ForecastResult;
import org.netweather.forecaster.battery.PhysicalRange;
import org.netweather.forecaster.battery.evaluation.HorizonEvaluation;
import org.netweather.forecaster.battery.evaluation.Trace;
import org.netweather.forecaster.battery.evaluation.TraceReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nws forecast SERIES} asks the forecaster (a pattern such as {@code tcp.bandwidth:alpha->*}
 * asks for several); {@code nws forecast --file TRACE.csv} runs the battery over a trace offline.
 */
@Command(
    name = "forecast",
    description =
        "Forecast the next value of a series, or of a CSV " + "trace (--file) without any daemon.")
public final class ForecastCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "SERIES",
      description = "Series name or pattern, e.g. cpu.availability:alpha or 'tcp.*:alpha->*'.")
  String series;

  @Option(
      names = "--file",
      paramLabel = "TRACE.csv",
      description = "Forecast a CSV trace (header timestamp,value) offline.")
  Path file;

  @Option(
      names = "--criterion",
      defaultValue = "mse",
      description = "Error measure that picks the predictor: mse or mae (default: mse).")
  String criterion;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  @Mixin IntervalOptions interval;

  @Option(
      names = "--horizon",
      paramLabel = "SPAN",
      description =
          "Forecast the mean over the next SPAN (90s, 10m, 2h, 1d) instead of the next value:"
              + " that many of the series' periods, from the series averaged over blocks of them.")
  String horizon;

  @Override
  public Integer call() throws Exception {
    Criterion c =
        switch (criterion) {
          case "mse" -> Criterion.CRITERION_MSE;
          case "mae" -> Criterion.CRITERION_MAE;
          default ->
              throw new IllegalArgumentException(
                  "--criterion '" + criterion + "' must be mse or mae");
        };
    if ((file == null) == (series == null)) {
      throw new IllegalArgumentException("give either SERIES or --file TRACE.csv");
    }
    if (file == null && interval.resource != null) {
      throw new IllegalArgumentException(
          "--resource is for --file; a live series' name says its resource");
    }
    long horizonMs = horizon == null ? 0 : TimeArgs.span("--horizon", horizon);
    List<Forecast> forecasts =
        file != null
            ? List.of(offline(file, c, interval, horizonMs))
            : ask(series, c, interval.requested(), horizonMs);
    if (json) {
      Object doc =
          forecasts.size() == 1 && (file != null || !series.contains("*"))
              ? ForecastView.toMap(forecasts.get(0))
              : Map.of("forecasts", forecasts.stream().map(ForecastView::toMap).toList());
      spec.commandLine().getOut().println(JsonWriter.write(doc));
    } else {
      ForecastView.table(forecasts, spec.commandLine().getOut());
    }
    spec.commandLine().getOut().flush();
    return 0;
  }

  private static Forecast offline(Path file, Criterion c, IntervalOptions interval, long horizonMs)
      throws Exception {
    // Reading a directory fails with a bare "Is a directory" that does not name the path.
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException(file + " is a directory, not a CSV trace");
    }
    Trace trace = TraceReader.read(file);
    if (trace.size() == 0) {
      throw new IllegalArgumentException(file + " holds no measurements");
    }
    double coverage = interval.coverage();
    PhysicalRange range = interval.rangeFor(trace.name());
    Battery battery = BatteryLayout.standard().newBattery();
    for (double v : trace.values()) {
      battery.observe(v);
    }
    int steps = 0;
    if (horizonMs > 0) {
      steps = new HorizonEvaluation(BatteryLayout.standard(), 0, coverage, horizonMs).steps(trace);
      battery = battery.horizon(steps);
      if (battery == null) {
        throw new IllegalArgumentException(
            file + " is too short for a horizon of " + steps + " measurements");
      }
    }
    // Clipped as the forecaster clips what it serves for a series of this resource.
    ForecastResult r =
        range.clip(
            battery.forecast(
                c == Criterion.CRITERION_MAE
                    ? org.netweather.forecaster.battery.Criterion.MAE
                    : org.netweather.forecaster.battery.Criterion.MSE,
                coverage));
    Forecast.Builder b =
        Forecast.newBuilder()
            .setSeries(trace.name())
            .setValue(r.value())
            .setMse(r.mse())
            .setMae(r.mae())
            .setMethod(r.method())
            .setCount(r.count())
            .setCriterion(c)
            .setHorizonMs(steps == 0 ? 0 : horizonMs)
            .setHorizonSteps(steps)
            .setLast(
                Measurement.newBuilder()
                    .setTimestampMs(trace.timestamps()[trace.size() - 1])
                    .setValue(trace.values()[trace.size() - 1]));
    if (Double.isFinite(r.lower())) {
      b.getIntervalBuilder().setLower(r.lower()).setUpper(r.upper()).setConfidence(r.coverage());
    }
    return b.build();
  }

  private List<Forecast> ask(String series, Criterion c, double coverage, long horizonMs) {
    try (NetWeatherClient client = connection.open()) {
      if (!series.contains("*")) {
        return List.of(
            client.forecast(
                GetForecastRequest.newBuilder()
                    .setSeries(series)
                    .setCriterion(c)
                    .setCoverage(coverage)
                    .setHorizonMs(horizonMs)
                    .build()));
      }
      GetForecastsRequest req =
          GetForecastsRequest.newBuilder()
              .addSeries(series)
              .setCriterion(c)
              .setCoverage(coverage)
              .setHorizonMs(horizonMs)
              .build();
      return new ArrayList<>(client.forecasts(req).getForecastsList());
    }
  }
}
