package org.netweather.cli.query;

import java.util.List;
import java.util.concurrent.Callable;
import org.netweather.api.v1.ListSeriesResponse;
import org.netweather.api.v1.SeriesSummary;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.Output;
import org.netweather.cli.output.TimeArgs;
import org.netweather.client.NetWeatherClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nws series [PATTERN]}: what is stored; {@code delete} and {@code retention}. */
@Command(
    name = "series",
    description = "List stored series with their latest value.",
    subcommands = {SeriesDeleteCommand.class, SeriesRetentionCommand.class})
public class SeriesCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "PATTERN",
      description = "Only series matching this pattern, e.g. 'tcp.bandwidth:alpha->*'.")
  String pattern = "";

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  @Override
  public Integer call() {
    try (NetWeatherClient client = connection.open()) {
      List<SeriesSummary> list = client.series(pattern);
      if (json) {
        spec.commandLine()
            .getOut()
            .println(Output.json(ListSeriesResponse.newBuilder().addAllSeries(list)));
      } else {
        Output.Table t = new Output.Table("SERIES", "UNIT", "POINTS", "LAST", "AT");
        for (SeriesSummary x : list) {
          t.row(
              x.getSeries(),
              x.getUnit().isEmpty() ? "-" : x.getUnit(),
              x.getCount(),
              x.getCount() == 0 ? "-" : Output.number(x.getLastValue()),
              x.getCount() == 0 ? "-" : TimeArgs.format(x.getLastTimestampMs()));
        }
        t.print(spec.commandLine().getOut());
      }
      spec.commandLine().getOut().flush();
      return 0;
    }
  }
}
