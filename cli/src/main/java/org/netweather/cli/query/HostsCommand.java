package org.netweather.cli.query;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchResponse;
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

/** {@code nws hosts} and {@code nws search FILTER}: registered daemons. */
@Command(name = "hosts", description = "List every registered NetWeather daemon.")
public class HostsCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  String filter() {
    return "";
  }

  @Override
  public Integer call() {
    try (NetWeatherClient client = connection.open()) {
      List<Registration> regs = client.search(filter());
      if (json) {
        spec.commandLine()
            .getOut()
            .println(Output.json(SearchResponse.newBuilder().addAllRegistrations(regs)));
      } else {
        Output.Table t = new Output.Table("NAME", "KIND", "ADDRESS", "EXPIRES", "ATTRIBUTES");
        for (Registration r : regs) {
          Map<String, String> attrs = new TreeMap<>(r.getAttributesMap());
          t.row(
              r.getName(),
              r.getKind(),
              r.getAddress(),
              TimeArgs.format(r.getExpiresMs()),
              attrs.isEmpty() ? "-" : attrs.toString());
        }
        t.print(spec.commandLine().getOut());
      }
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  /** {@code nws search FILTER}. */
  @Command(
      name = "search",
      description =
          "List daemons whose registrations match an LDAP-style filter, "
              + "e.g. '(&(kind=sensor)(cluster=a*))'.")
  public static class SearchCommand extends HostsCommand {
    @Parameters(
        index = "0",
        paramLabel = "FILTER",
        description = "LDAP-style filter over registrations, e.g. '(&(kind=sensor)(cluster=lab))'.")
    String filterText;

    @Override
    String filter() {
      return filterText;
    }
  }
}
