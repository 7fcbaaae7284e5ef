package org.netweather.scheduler.swap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The swap library and dispatcher on the example application, in one JVM. */
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
