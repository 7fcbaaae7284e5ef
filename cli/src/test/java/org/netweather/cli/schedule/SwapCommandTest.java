package org.netweather.cli.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netweather.cli.ErrorHandler;
import org.netweather.scheduler.swap.ExampleIterativeApp;
import org.netweather.scheduler.swap.FphParameters;
import org.netweather.scheduler.swap.FphPolicy;
import org.netweather.scheduler.swap.NaivePolicy;
import org.netweather.scheduler.swap.SwapDispatcher;
import org.netweather.scheduler.swap.SwapDispatcherServer;
import org.netweather.scheduler.swap.SwapManager;
import picocli.CommandLine;

/** {@code nws schedule swap} against a dispatcher steering the example application. */
class SwapCommandTest {
  private static SwapManager manager() {
    return new SwapManager(
        "example", List.of("h0", "h1", "h2", "h3"), 2, new FphPolicy(FphParameters.defaults()), 2);
  }

  private static String nws(int port, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd =
        new CommandLine(new SwapCommand()).setExecutionExceptionHandler(new ErrorHandler());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    String[] all = new String[args.length + 1];
    all[0] = "--dispatcher-port=" + port;
    System.arraycopy(args, 0, all, 1, args.length);
    int code = cmd.execute(all);
    return code + " " + out + err;
  }

  @Test
  void cli_statusAndForce_throughTheDispatcher() {
    SwapDispatcher d = new SwapDispatcher();
    SwapManager m = manager();
    d.adopt(m);
    try (SwapDispatcherServer s =
        SwapDispatcherServer.start(
            d,
            NettyServerBuilder.forAddress(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))) {
      String status = nws(s.getPort(), "status");
      assertTrue(status.startsWith("0 example policy=fph root=h0 ranks=0:h0,1:h1 swaps=0"), status);
      assertTrue(nws(s.getPort(), "force", "example", "h1", "h3").startsWith("0 "));
      ExampleIterativeApp.run(m, 20, 10, Map.of(), 0);
      assertEquals(Map.of(0, "h0", 1, "h3"), m.ranks());
      assertTrue(
          nws(s.getPort(), "status", "example", "--json").contains("\"swaps\": 1")
              || nws(s.getPort(), "status", "example", "--json").contains("\"swaps\":1"));
      String bad = nws(s.getPort(), "force", "example", "h2", "h1");
      assertTrue(bad.startsWith("2 ") || bad.startsWith("1 "), bad);
      assertTrue(bad.contains("must be active"), bad);
      assertFalse(m.log().isEmpty());
    }
  }

  @Test
  void cli_statusText_keepsItsLineFormat() {
    SwapDispatcher d = new SwapDispatcher();
    d.start("fish", List.of("a", "b", "c", "d"), 2, new NaivePolicy(false), 2);
    d.adopt(manager());
    try (SwapDispatcherServer s =
        SwapDispatcherServer.start(
            d,
            NettyServerBuilder.forAddress(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))) {
      assertEquals(
          "0 example policy=fph root=h0 ranks=0:h0,1:h1 swaps=0 last=-\n"
              + "fish policy=naive root=a ranks=0:a,1:b swaps=0 last=-\n",
          nws(s.getPort(), "status").replace(System.lineSeparator(), "\n"));
      String missing = nws(s.getPort(), "status", "nope");
      assertTrue(missing.startsWith("2 ") && missing.contains("no application 'nope'"), missing);
    }
  }

  @Test
  void cli_noDispatcher_saysWhereItLooked() throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    String out = nws(port, "status");
    assertTrue(
        out.startsWith("1 ")
            && out.contains("cannot reach the swap dispatcher at localhost:" + port),
        out);
  }
}
