package org.netweather.cli.clique;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.ListCliquesResponse;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.ErrorHandler;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.Output;
import org.netweather.client.Filters;
import org.netweather.client.NetWeatherClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nws clique create|list|delete}: clique definitions in the nameserver. */
@Command(
    name = "clique",
    description = "Create, list and delete cliques: hosts whose network " + "probes take turns.",
    subcommands = {
      CliqueCommand.Create.class,
      CliqueCommand.ListCmd.class,
      CliqueCommand.Delete.class
    })
public class CliqueCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ErrorHandler.USAGE;
  }

  /** Parses 60, 60s, 5m, 1h into seconds. */
  /** The longest clique period the nameserver accepts, a day. */
  static final long MAX_PERIOD_SECONDS = 86_400;

  /**
   * A clique period: a whole number of seconds with an optional unit s, m, h or d, from 1 s to a
   * day (what the nameserver accepts).
   */
  static long seconds(String option, String text) {
    String t = text.strip();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,9})([smhd]?)").matcher(t);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          option
              + " '"
              + cut(text)
              + "' is not a duration: a whole number with s, m, h or d (60s, 5m, 1h)");
    }
    long unit =
        switch (m.group(2)) {
          case "m" -> 60;
          case "h" -> 3_600;
          case "d" -> 86_400;
          default -> 1;
        };
    long seconds = Long.parseLong(m.group(1)) * unit;
    if (seconds < 1 || seconds > MAX_PERIOD_SECONDS) {
      throw new IllegalArgumentException(
          option + " " + text + " is outside 1s to 1d (" + MAX_PERIOD_SECONDS + " s)");
    }
    return seconds;
  }

  private static String cut(String text) {
    return text.length() <= 40
        ? text
        : text.substring(0, 40) + "... (" + text.length() + " characters)";
  }

  /** {@code nws clique create NAME --members a,b,c --period 60s}. */
  @Command(name = "create", description = "Create or replace a clique.")
  public static class Create implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "The clique's name.")
    String name;

    @Option(
        names = "--members",
        split = ",",
        required = true,
        paramLabel = "H1,H2,...",
        description = "Host names in token order.")
    List<String> members;

    @Option(
        names = "--period",
        defaultValue = "60s",
        description = "How often each member probes the others (default: ${DEFAULT-VALUE}).")
    String period;

    @Option(names = "--json", description = "Print a JSON document.")
    boolean json;

    @Override
    public Integer call() {
      try (NetWeatherClient client = connection.open()) {
        Clique c =
            client.putClique(
                Clique.newBuilder()
                    .setName(name)
                    .addAllMembers(members)
                    .setPeriodSeconds(seconds("--period", period))
                    .build());
        PrintWriter out = spec.commandLine().getOut();
        out.println(
            json
                ? Output.json(c)
                : "clique "
                    + c.getName()
                    + ": "
                    + String.join(" -> ", c.getMembersList())
                    + ", every "
                    + c.getPeriodSeconds()
                    + " s");
        out.flush();
        // A typo in a member's name makes a clique that silently never probes that host.
        for (String member : c.getMembersList()) {
          if (client.search("(&(kind=sensor)(host=" + Filters.escape(member) + "))").isEmpty()) {
            spec.commandLine()
                .getErr()
                .println(
                    "warning: no sensor is registered for host "
                        + member
                        + " (yet); the clique probes it only once one is");
          }
        }
        return 0;
      }
    }
  }

  /** {@code nws clique list [--host H]}. */
  @Command(name = "list", description = "List cliques.")
  public static class ListCmd implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Option(names = "--host", description = "Only cliques this host is in.")
    String host = "";

    @Option(names = "--json", description = "Print a JSON document.")
    boolean json;

    @Override
    public Integer call() {
      try (NetWeatherClient client = connection.open()) {
        List<Clique> cliques = client.cliques(host);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
          out.println(Output.json(ListCliquesResponse.newBuilder().addAllCliques(cliques)));
        } else {
          Output.Table t = new Output.Table("CLIQUE", "MEMBERS", "PERIOD (s)");
          cliques.forEach(
              c -> t.row(c.getName(), String.join(",", c.getMembersList()), c.getPeriodSeconds()));
          t.print(out);
        }
        out.flush();
        return 0;
      }
    }
  }

  /** {@code nws clique delete NAME}. */
  @Command(name = "delete", description = "Delete a clique.")
  public static class Delete implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "The clique to delete.")
    String name;

    @Option(names = "--json", description = "Print a JSON document.")
    boolean json;

    @Override
    public Integer call() {
      try (NetWeatherClient client = connection.open()) {
        // The nameserver answers removed=false rather than NOT_FOUND for an unknown name.
        if (!client.deleteClique(name)) {
          throw new IllegalStateException("no clique " + name);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(json ? JsonWriter.write(Map.of("deleted", name)) : "deleted " + name);
        out.flush();
        return 0;
      }
    }
  }
}
