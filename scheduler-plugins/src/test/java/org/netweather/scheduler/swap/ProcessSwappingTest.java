package org.netweather.scheduler.swap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netweather.clients.cli.ErrorHandler;
import org.netweather.scheduler.cli.SwapCommand;
import picocli.CommandLine;

/** The swap library, dispatcher and CLI on the example application, in one JVM. */
class ProcessSwappingTest {
  private static SwapManager manager(SwapPolicy policy) {
    return new SwapManager("example", List.of("h0", "h1", "h2", "h3"), 2, policy, 2);
  }

  @Test
  void run_loadedHost_fphSwapsItOutAndStateSurvives() {
    ExampleIterativeApp.Result plain = ExampleIterativeApp.run(
        manager(new NaivePolicy(true)), 100, 10, Map.of(), 0);
    assertEquals(List.of(), plain.swaps());
    SwapManager m = manager(new FphPolicy(FphParameters.defaults()));
    ExampleIterativeApp.Result swapped = ExampleIterativeApp.run(m, 100, 10,
        Map.of("h0", 30), 0);
    assertEquals(List.of("h0->h2"), swapped.swaps());
    assertEquals("h2", m.root());
    // The same numbers as without swapping: the strip and counter moved intact.
    assertArrayEquals(plain.checksums(), swapped.checksums(), 0);
  }

  @Test
  void run_naivePolicy_hotPotatoesOnIdleHosts() {
    ExampleIterativeApp.Result r = ExampleIterativeApp.run(manager(new NaivePolicy(false)), 100,
        10, Map.of(), 0);
    assertTrue(r.swaps().size() >= 8, r.swaps().toString());
  }

  @Test
  void state_unknownPart_isRejected() {
    SwapState a = new SwapState();
    a.register("x", () -> new byte[] {1}, b -> { });
    SwapState b = new SwapState();
    assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> b.restore(a.save())).getMessage().contains("'x'"));
  }

  private static String nws(int port, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new SwapCommand())
        .setExecutionExceptionHandler(new ErrorHandler());
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
    SwapManager m = manager(new FphPolicy(FphParameters.defaults()));
    d.adopt(m);
    try (SwapDispatcherServer s = SwapDispatcherServer.start(d, 0)) {
      String status = nws(s.getPort(), "status");
      assertTrue(status.startsWith("0 example policy=fph root=h0 ranks=0:h0,1:h1 swaps=0"),
          status);
      assertTrue(nws(s.getPort(), "force", "example", "h1", "h3").startsWith("0 "));
      ExampleIterativeApp.run(m, 20, 10, Map.of(), 0);
      assertEquals(Map.of(0, "h0", 1, "h3"), m.ranks());
      assertTrue(nws(s.getPort(), "status", "example", "--json").contains("\"swaps\": 1")
          || nws(s.getPort(), "status", "example", "--json").contains("\"swaps\":1"));
      String bad = nws(s.getPort(), "force", "example", "h2", "h1");
      assertTrue(bad.startsWith("2 ") || bad.startsWith("1 "), bad);
      assertTrue(bad.contains("must be active"), bad);
      assertFalse(m.log().isEmpty());
    }
  }

  @Test
  void dispatcher_startAndFinish_manageApplications() {
    SwapDispatcher d = new SwapDispatcher();
    assertEquals(List.of("OK"), d.handle("START fish naive 2 a,b,c,d"));
    assertEquals("fish policy=naive root=a ranks=0:a,1:b swaps=0 last=-",
        d.handle("STATUS fish").get(0));
    assertTrue(d.handle("START fish bogus 2 a,b").get(0).startsWith("ERR unknown policy"));
    assertEquals(List.of("OK"), d.handle("FINISH fish"));
    assertTrue(d.handle("STATUS fish").get(0).startsWith("ERR"));
  }
}
