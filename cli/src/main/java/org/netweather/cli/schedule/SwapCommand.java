package org.netweather.cli.schedule;

import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.netweather.api.v1.SwapApplication;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.TimeArgs;
import org.netweather.scheduler.frame.ResourceSnapshot;
import org.netweather.scheduler.swap.HostView;
import org.netweather.scheduler.swap.SnapshotHostViews;
import org.netweather.scheduler.swap.SwapDispatcher;
import org.netweather.scheduler.swap.SwapDispatcherClient;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code nws schedule swap status|force|views} (also {@code nws swap}): watch and steer process
 * swapping through the swap dispatcher's gRPC service ({@code swap.proto}).
 *
 * <pre>{@code
 * nws swap status [APP] [--json]
 * nws swap force APP OUT_HOST IN_HOST
 * nws swap views (--snapshot FILE | --cluster C) [--active H1,H2] [--json]
 * }</pre>
 */
@Command(
    name = "swap",
    subcommands = {SwapCommand.Status.class, SwapCommand.Force.class, SwapCommand.Views.class},
    description = "Watch and force process swaps of iterative applications.")
public final class SwapCommand implements Callable<Integer> {
  private static final Duration DEADLINE = Duration.ofSeconds(5);

  @Spec CommandSpec spec;

  @Option(
      names = "--dispatcher-host",
      paramLabel = "HOST",
      defaultValue = "localhost",
      description = "Swap dispatcher host (default: ${DEFAULT-VALUE}).",
      scope = picocli.CommandLine.ScopeType.INHERIT)
  String host;

  @Option(
      names = "--dispatcher-port",
      paramLabel = "PORT",
      defaultValue = "" + SwapDispatcher.DEFAULT_PORT,
      description = "Swap dispatcher port (default: ${DEFAULT-VALUE}).",
      scope = picocli.CommandLine.ScopeType.INHERIT)
  int port;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  /** Runs {@code call} against the dispatcher, its refusals as bad input like before. */
  <T> T call(Function<SwapDispatcherClient, T> call) {
    try (SwapDispatcherClient client = SwapDispatcherClient.connect(host, port, DEADLINE)) {
      return call.apply(client);
    } catch (StatusRuntimeException e) {
      io.grpc.Status s = e.getStatus();
      switch (s.getCode()) {
        case NOT_FOUND, FAILED_PRECONDITION, INVALID_ARGUMENT ->
            throw new IllegalArgumentException(s.getDescription(), e);
        case UNAVAILABLE ->
            throw new IllegalStateException(
                "cannot reach the swap dispatcher at "
                    + host
                    + ":"
                    + port
                    + " ("
                    + unreachable(s)
                    + "); is it running? (--dispatcher-host, "
                    + "--dispatcher-port)",
                e);
        default -> throw e;
      }
    }
  }

  /** Why the dispatcher could not be reached, as briefly as the socket said it before gRPC. */
  private static String unreachable(io.grpc.Status s) {
    for (Throwable t = s.getCause(); t != null; t = t.getCause()) {
      if (t instanceof ConnectException) {
        // Netty's message adds its syscall and the address, which the line already names.
        return "Connection refused";
      }
    }
    return s.getCause() != null ? s.getCause().getMessage() : s.getDescription();
  }

  /** {@code app policy=P root=H ranks=0:h1,1:h2 swaps=N last=OUT->IN}, as always printed. */
  static String line(SwapApplication a) {
    return a.getApplication()
        + " policy="
        + a.getPolicy()
        + " root="
        + a.getRoot()
        + " ranks="
        + ranks(a)
        + " swaps="
        + a.getSwaps()
        + " last="
        + last(a);
  }

  private static String ranks(SwapApplication a) {
    StringBuilder ranks = new StringBuilder();
    new TreeMap<>(a.getRanksMap())
        .forEach(
            (rank, host) ->
                ranks.append(ranks.length() == 0 ? "" : ",").append(rank).append(':').append(host));
    return ranks.toString();
  }

  private static String last(SwapApplication a) {
    return a.getLastOut().isEmpty() ? "-" : a.getLastOut() + "->" + a.getLastIn();
  }

  /** {@code nws swap status}. */
  @Command(name = "status", description = "Each application's policy, root, ranks and swaps.")
  static final class Status implements Callable<Integer> {
    @Spec CommandSpec spec;
    @ParentCommand SwapCommand parent;

    @Parameters(arity = "0..1", paramLabel = "APP", description = "One application only.")
    String application;

    @Option(names = "--json", description = "Print a JSON document.")
    boolean json;

    @Override
    public Integer call() {
      List<SwapApplication> apps =
          parent.call(c -> c.status(application == null ? "" : application));
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        List<Object> rows = new ArrayList<>();
        for (SwapApplication a : apps) {
          Map<String, Object> r = new java.util.LinkedHashMap<>();
          r.put("application", a.getApplication());
          r.put("policy", a.getPolicy());
          r.put("root", a.getRoot());
          r.put("ranks", ranks(a));
          r.put("swaps", (int) a.getSwaps());
          r.put("last", last(a));
          rows.add(r);
        }
        out.println(JsonWriter.write(Map.of("applications", rows)));
      } else if (apps.isEmpty()) {
        out.println("no applications");
      } else {
        apps.forEach(a -> out.println(line(a)));
      }
      out.flush();
      return 0;
    }
  }

  /** {@code nws swap force}. */
  @Command(name = "force", description = "Swap OUT for IN at the application's next swap point.")
  static final class Force implements Callable<Integer> {
    @Spec CommandSpec spec;
    @ParentCommand SwapCommand parent;

    @Parameters(
        index = "0",
        paramLabel = "APP",
        description = "The application's name at the dispatcher.")
    String application;

    @Parameters(index = "1", paramLabel = "OUT", description = "The host to swap out.")
    String out;

    @Parameters(index = "2", paramLabel = "IN", description = "The host to swap in.")
    String in;

    @Override
    public Integer call() {
      parent.call(
          c -> {
            c.force(application, out, in);
            return null;
          });
      spec.commandLine()
          .getOut()
          .printf("%s: %s will swap for %s at the next swap point%n", application, out, in);
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  /** {@code nws swap views}: what the policies would see of a cluster now. */
  @Command(
      name = "views",
      description =
          "Each host as the swap policies see it, from a "
              + "cluster's forecasts: load, self-load corrected CPU forecast and its error.")
  static final class Views implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin ConnectionOptions connection;

    @ArgGroup(exclusive = true, multiplicity = "1")
    SnapshotSource source;

    @Option(
        names = "--active",
        paramLabel = "H1,H2",
        split = ",",
        description = "Hosts that run a rank (their own process is taken out of their load).")
    List<String> active = List.of();

    @Option(
        names = "--persistence",
        paramLabel = "SECONDS",
        defaultValue = "60",
        description = "τ given to every host (default: ${DEFAULT-VALUE}).")
    double persistence;

    @Option(
        names = "--horizon",
        paramLabel = "SPAN",
        description =
            "With --cluster: each host's CPU forecast is its mean over the next SPAN (90s, 10m),"
                + " e.g. the τ over which a swap must pay back, instead of the next value.")
    String horizon;

    @Option(names = "--json", description = "Print a JSON document.")
    boolean json;

    @Override
    public Integer call() {
      ResourceSnapshot s =
          source.load(connection, horizon == null ? 0 : TimeArgs.span("--horizon", horizon));
      List<String> hosts = s.hosts().stream().map(h -> h.name()).toList();
      for (String a : active) {
        if (s.indexOf(a) < 0) {
          throw new IllegalArgumentException(
              "--active: host '" + a + "' is not in " + source.describe());
        }
      }
      List<HostView> views = SnapshotHostViews.views(s, hosts, active::contains, persistence);
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        List<Object> rows = new ArrayList<>();
        for (HostView v : views) {
          Map<String, Object> r = new java.util.LinkedHashMap<>();
          r.put("host", v.name());
          r.put("active", v.active());
          r.put("loadAverage", Double.isNaN(v.loadAverage()) ? null : v.loadAverage());
          r.put("forecast", v.forecast());
          r.put("error", v.error());
          r.put("persistence", v.persistence());
          rows.add(r);
        }
        out.println(JsonWriter.write(Map.of("cluster", s.cluster(), "hosts", rows)));
      } else {
        out.printf("%-16s %-6s %8s %9s %7s%n", "host", "active", "load", "forecast", "error");
        for (HostView v : views) {
          out.printf(
              java.util.Locale.ROOT,
              "%-16s %-6s %8s %9.3f %7.3f%n",
              v.name(),
              v.active() ? "yes" : "no",
              Double.isNaN(v.loadAverage())
                  ? "-"
                  : String.format(java.util.Locale.ROOT, "%.2f", v.loadAverage()),
              v.forecast(),
              v.error());
        }
      }
      out.flush();
      return 0;
    }
  }
}
