package org.netweather.cli.query;

import java.time.Clock;
import java.util.concurrent.Callable;
import org.netweather.api.v1.FetchResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.Output;
import org.netweather.cli.output.TimeArgs;
import org.netweather.client.NetWeatherClient;
import org.netweather.model.SeriesName;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nws history SERIES [--last N | --since T]}: raw measurements. */
@Command(name = "history", description = "Print the stored measurements of a series.")
public class HistoryCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SERIES", description = "e.g. cpu.availability:alpha")
  String series;

  @ArgGroup(exclusive = true)
  Selection selection = new Selection();

  static class Selection {
    @Option(names = "--last", paramLabel = "N", description = "The newest N points (default 20).")
    Integer last;

    @Option(
        names = "--since",
        paramLabel = "TIME",
        description = "Points since TIME: epoch ms, ISO-8601, or a span ago such as 10m, 2h.")
    String since;
  }

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  Clock clock = Clock.systemUTC();

  @Override
  public Integer call() {
    SeriesName.parse(series);
    try (NetWeatherClient client = connection.open()) {
      FetchResponse r;
      if (selection.since != null) {
        r = client.range(series, TimeArgs.parse("--since", selection.since, clock), 0);
      } else {
        int n = selection.last == null ? 20 : selection.last;
        if (n < 1) {
          throw new IllegalArgumentException("--last " + n + " must be at least 1");
        }
        r = client.last(series, n);
      }
      if (json) {
        spec.commandLine().getOut().println(Output.json(r));
      } else {
        Output.Table t = new Output.Table("TIME", "VALUE");
        for (Measurement m : r.getPointsList()) {
          t.row(TimeArgs.format(m.getTimestampMs()), Output.number(m.getValue()));
        }
        t.print(spec.commandLine().getOut());
      }
      spec.commandLine().getOut().flush();
      return 0;
    }
  }
}
