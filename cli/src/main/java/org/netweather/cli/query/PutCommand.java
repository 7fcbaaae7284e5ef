package org.netweather.cli.query;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.Output;
import org.netweather.cli.output.TimeArgs;
import org.netweather.client.NetWeatherClient;
import org.netweather.model.SeriesName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nws put SERIES VALUE [--at T]}: store one measurement by hand. */
@Command(name = "put", description = "Store one measurement.")
public class PutCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SERIES", description = "e.g. cpu.availability:alpha")
  String series;

  @Parameters(
      index = "1",
      paramLabel = "VALUE",
      description = "The measurement, a decimal number in the series' unit (e.g. 0.75).")
  String value;

  @Option(
      names = "--at",
      paramLabel = "TIME",
      description = "When it was measured (default now): epoch ms, ISO-8601, or a span ago.")
  String at;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  Clock clock = Clock.systemUTC();

  @Override
  public Integer call() {
    SeriesName name = SeriesName.parse(series);
    // Decimal notation only: Java would also take hex floats, "NaN" and a trailing "d".
    if (!value.strip().matches("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]{1,3})?")) {
      throw new IllegalArgumentException(
          "VALUE '"
              + (value.length() <= 40 ? value : value.substring(0, 40) + "...")
              + "' is not a decimal number (e.g. 0.75, 12, 1.5e9)");
    }
    double v = Double.parseDouble(value.strip());
    String bad = name.checkValue(v);
    if (bad != null) {
      throw new IllegalArgumentException("VALUE " + value + " " + bad + " for " + series);
    }
    long ts = at == null ? clock.millis() : TimeArgs.parse("--at", at, clock);
    try (NetWeatherClient client = connection.open()) {
      AppendResponse r =
          client.put(
              series, List.of(Measurement.newBuilder().setTimestampMs(ts).setValue(v).build()));
      if (json) {
        spec.commandLine().getOut().println(Output.json(r));
      } else if (r.getStored() == 1) {
        spec.commandLine()
            .getOut()
            .println("stored " + series + " = " + value + " at " + TimeArgs.format(ts));
      } else {
        spec.commandLine()
            .getOut()
            .println("already stored: " + series + " at " + TimeArgs.format(ts));
      }
      spec.commandLine().getOut().flush();
      return 0;
    }
  }
}
