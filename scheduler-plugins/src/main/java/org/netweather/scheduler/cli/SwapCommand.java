package org.netweather.scheduler.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.clients.cli.JsonWriter;
import org.netweather.scheduler.swap.SwapDispatcher;
import org.netweather.scheduler.swap.SwapDispatcherClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nws swap status|force}: watch and steer process swapping through the swap dispatcher.
 *
 * <pre>{@code
 * nws swap status [APP] [--json]
 * nws swap force APP OUT_HOST IN_HOST
 * }</pre>
 */
@Command(name = "swap", subcommands = {SwapCommand.Status.class, SwapCommand.Force.class},
    description = "Watch and force process swaps of iterative applications.")
public final class SwapCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--dispatcher-host", paramLabel = "HOST", defaultValue = "localhost",
      description = "Swap dispatcher host (default: ${DEFAULT-VALUE}).", scope =
      picocli.CommandLine.ScopeType.INHERIT)
  String host;

  @Option(names = "--dispatcher-port", paramLabel = "PORT",
      defaultValue = "" + SwapDispatcher.DEFAULT_PORT,
      description = "Swap dispatcher port (default: ${DEFAULT-VALUE}).",
      scope = picocli.CommandLine.ScopeType.INHERIT)
  int port;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  List<String> request(String line) {
    List<String> reply = SwapDispatcherClient.request(host, port, line);
    for (String r : reply) {
      if (r.startsWith("ERR ")) {
        throw new IllegalArgumentException(r.substring(4));
      }
    }
    return reply;
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
      List<String> lines = parent.request("STATUS" + (application == null ? ""
          : " " + application));
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        List<Object> apps = new ArrayList<>();
        for (String l : lines) {
          String[] w = l.split(" ");
          Map<String, Object> a = new java.util.LinkedHashMap<>();
          a.put("application", w[0]);
          for (int i = 1; i < w.length; i++) {
            String[] kv = w[i].split("=", 2);
            a.put(kv[0], kv[0].equals("swaps") ? (Object) Integer.parseInt(kv[1]) : kv[1]);
          }
          apps.add(a);
        }
        out.println(JsonWriter.write(Map.of("applications", apps)));
      } else if (lines.isEmpty()) {
        out.println("no applications");
      } else {
        lines.forEach(out::println);
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

    @Parameters(index = "0", paramLabel = "APP") String application;
    @Parameters(index = "1", paramLabel = "OUT") String out;
    @Parameters(index = "2", paramLabel = "IN") String in;

    @Override
    public Integer call() {
      parent.request("FORCE " + application + " " + out + " " + in);
      spec.commandLine().getOut().printf("%s: %s will swap for %s at the next swap point%n",
          application, out, in);
      spec.commandLine().getOut().flush();
      return 0;
    }
  }
}
