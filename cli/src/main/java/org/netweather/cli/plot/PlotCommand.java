package org.netweather.cli.plot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.netweather.api.v1.FetchResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.forecast.IntervalOptions;
import org.netweather.cli.output.TimeArgs;
import org.netweather.client.NetWeatherClient;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.PhysicalRange;
import org.netweather.forecaster.battery.evaluation.Trace;
import org.netweather.forecaster.battery.evaluation.TraceReader;
import org.netweather.model.Resource;
import org.netweather.model.SeriesName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nws plot SERIES... [--since 6h] [--file CSV]... [-o FILE.png]}: a picture of series'
 * history with the forecasts made for it and their intervals (90 % unless {@code --coverage} says
 * otherwise, clipped to the resource's range), without a display.
 */
@Command(
    name = "plot",
    description =
        "Draw series' history with the forecast made for each point and its interval (90 %% by"
            + " default) as a band, into a PNG (no display needed).")
public final class PlotCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Mixin IntervalOptions interval;
  @Spec CommandSpec spec;

  @Parameters(
      arity = "0..*",
      paramLabel = "SERIES",
      description = "Series to draw from the memory-hosts, e.g. cpu.availability:alpha.")
  List<String> series = new ArrayList<>();

  @Option(
      names = "--file",
      paramLabel = "CSV",
      description = "A CSV trace (header timestamp,value) to draw as well (repeatable).")
  List<Path> files = new ArrayList<>();

  @Option(
      names = "--since",
      defaultValue = "6h",
      paramLabel = "TIME",
      description = "Points since TIME: a span ago (6h, 2d), ISO-8601 or epoch ms (default: 6h).")
  String since;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "nws-plot.png",
      paramLabel = "FILE.png",
      description = "Where to write the PNG (default: ${DEFAULT-VALUE}).")
  Path output;

  @Option(
      names = "--size",
      defaultValue = "1000x500",
      paramLabel = "WxH",
      description = "Image size in pixels (default: ${DEFAULT-VALUE}).")
  String size;

  @Option(names = "--no-band", description = "Draw the measurements only.")
  boolean noBand;

  @Option(
      names = "--criterion",
      defaultValue = "mse",
      description = "Error the forecasts minimise: mse or mae (default: ${DEFAULT-VALUE}).")
  String criterion;

  Clock clock = Clock.systemUTC();

  @Override
  public Integer call() throws Exception {
    System.setProperty("java.awt.headless", "true");
    if (series.isEmpty() && files.isEmpty()) {
      throw new IllegalArgumentException("name at least one SERIES or --file CSV");
    }
    if (!output.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".png")) {
      throw new IllegalArgumentException("-o " + output + ": only PNG is written (FILE.png)");
    }
    int[] wh = size();
    Criterion c =
        switch (criterion) {
          case "mse" -> Criterion.MSE;
          case "mae" -> Criterion.MAE;
          default -> throw new IllegalArgumentException("--criterion must be mse or mae");
        };
    double coverage = interval.coverage();
    List<PlotSeries> drawn = new ArrayList<>();
    for (Path f : files) {
      if (Files.isDirectory(f)) {
        throw new IllegalArgumentException(f + " is a directory, not a CSV trace");
      }
      Trace t = TraceReader.read(f);
      PhysicalRange range = interval.rangeFor(t.name());
      drawn.add(
          PlotSeries.of(
              t.name(),
              range == PhysicalRange.UNBOUNDED ? "" : Resource.unitOf(range.resource()),
              t.timestamps(),
              t.values(),
              c,
              coverage,
              range));
    }
    if (!series.isEmpty()) {
      long from = TimeArgs.parse("--since", since, clock);
      try (NetWeatherClient client = connection.open()) {
        for (String s : series) {
          SeriesName name = SeriesName.parse(s);
          FetchResponse r = client.range(s, from, 0);
          List<Measurement> points = r.getPointsList();
          long[] times = new long[points.size()];
          double[] values = new double[points.size()];
          for (int i = 0; i < times.length; i++) {
            times[i] = points.get(i).getTimestampMs();
            values[i] = points.get(i).getValue();
          }
          Resource known = name.knownResource();
          drawn.add(
              PlotSeries.of(
                  s,
                  known == null ? "" : known.unit(),
                  times,
                  values,
                  c,
                  coverage,
                  known == null ? PhysicalRange.UNBOUNDED : PhysicalRange.of(known)));
        }
      }
    }
    for (PlotSeries p : drawn) {
      if (p.times().length == 0) {
        spec.commandLine().getErr().println("warning: " + p.name() + " has no points to draw");
      }
    }
    ChartRenderer.png(ChartRenderer.chart(drawn, !noBand), output, wh[0], wh[1]);
    spec.commandLine()
        .getOut()
        .println("wrote " + output + " (" + wh[0] + "x" + wh[1] + ", " + drawn.size() + " series)");
    return 0;
  }

  private int[] size() {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("([0-9]{2,5})x([0-9]{2,5})").matcher(size);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "--size '" + size + "' must be WIDTHxHEIGHT, e.g. 1000x500");
    }
    int w = Integer.parseInt(m.group(1));
    int h = Integer.parseInt(m.group(2));
    if (w < 200 || h < 150 || w > 8000 || h > 8000) {
      throw new IllegalArgumentException("--size " + size + " must be within 200x150 to 8000x8000");
    }
    return new int[] {w, h};
  }
}
