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

/**
 * {@code nws series delete PATTERN [--force]}: lists the series a pattern matches on every
 * memory-host, and deletes them only with {@code --force}. A pattern such as {@code '*'} wipes a
 * site's history in one call, so the safe reading is the default.
 */
@Command(
    name = "delete",
    description =
        "Delete every series matching PATTERN, with its raw points and archives, on every"
            + " memory-host; forecasts of it go too. Without --force, only lists what would be"
            + " deleted.")
public class SeriesDeleteCommand implements Callable<Integer> {
  /** Names printed per memory-host in a dry run; the count covers the rest. */
  static final int SHOWN = 10;

  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "PATTERN",
      description = "Series name or pattern with '*', e.g. 'tcp.*:old-host->*'.")
  String pattern;

  @Option(names = "--force", description = "Delete for real (without it, a dry run).")
  boolean force;

  @Option(
      names = "--dry-run",
      description = "Only list what would be deleted (the default; wins over --force).")
  boolean dryRun;

  @Option(names = "--json", description = "Print a JSON document per memory-host.")
  boolean json;

  @Override
  public Integer call() {
    boolean dry = dryRun || !force;
    try (NetWeatherClient client = connection.open()) {
      Map<String, DeleteSeriesResponse> byHost = client.deleteSeries(pattern, dry);
      var out = spec.commandLine().getOut();
      long total = 0;
      for (Map.Entry<String, DeleteSeriesResponse> e : byHost.entrySet()) {
        DeleteSeriesResponse r = e.getValue();
        total += r.getCount();
        if (json) {
          out.println(Output.json(r.toBuilder()));
          continue;
        }
        int shown = dry ? Math.min(SHOWN, r.getSeriesCount()) : r.getSeriesCount();
        for (String s : r.getSeriesList().subList(0, shown)) {
          out.println(s);
        }
        long unlisted = r.getCount() - shown;
        if (unlisted > 0) {
          out.println("... and " + unlisted + " more on " + e.getKey());
        }
      }
      if (!json) {
        if (dry) {
          out.println(
              "dry run: would delete "
                  + total
                  + " series"
                  + (total > 0 ? "; nothing deleted (add --force to delete them)" : ""));
        } else {
          out.println("deleted " + total + " series");
        }
      }
      out.flush();
      return 0;
    }
  }
}
