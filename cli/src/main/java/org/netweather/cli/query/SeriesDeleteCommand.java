package org.netweather.cli.query;

import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.api.v1.DeleteSeriesResponse;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.Output;
import org.netweather.client.NetWeatherClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nws series delete PATTERN [--dry-run]}: deletes series on every memory-host. */
@Command(
    name = "delete",
    description =
        "Delete every series matching PATTERN, with its raw"
            + " points and archives, on every memory-host; forecasts of it go too.")
public class SeriesDeleteCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "PATTERN",
      description = "Series name or pattern with '*', e.g. 'tcp.*:old-host->*'.")
  String pattern;

  @Option(names = "--dry-run", description = "Only list what would be deleted.")
  boolean dryRun;

  @Option(names = "--json", description = "Print a JSON document per memory-host.")
  boolean json;

  @Override
  public Integer call() {
    try (NetWeatherClient client = connection.open()) {
      Map<String, DeleteSeriesResponse> byHost = client.deleteSeries(pattern, dryRun);
      var out = spec.commandLine().getOut();
      long total = 0;
      for (Map.Entry<String, DeleteSeriesResponse> e : byHost.entrySet()) {
        total += e.getValue().getCount();
        if (json) {
          out.println(Output.json(e.getValue().toBuilder()));
          continue;
        }
        for (String s : e.getValue().getSeriesList()) {
          out.println(s);
        }
        long unlisted = e.getValue().getCount() - e.getValue().getSeriesCount();
        if (unlisted > 0) {
          out.println("... and " + unlisted + " more on " + e.getKey());
        }
      }
      if (!json) {
        out.println((dryRun ? "would delete " : "deleted ") + total + " series");
      }
      out.flush();
      return 0;
    }
  }
}
