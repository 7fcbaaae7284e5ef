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
    ExampleIterativeApp.Result plain =
        ExampleIterativeApp.run(manager(new NaivePolicy(true)), 100, 10, Map.of(), 0);
    assertEquals(List.of(), plain.swaps());
    SwapManager m = manager(new FphPolicy(FphParameters.defaults()));
    ExampleIterativeApp.Result swapped = ExampleIterativeApp.run(m, 100, 10, Map.of("h0", 30), 0);
    assertEquals(List.of("h0->h2"), swapped.swaps());
    assertEquals("h2", m.root());
    // The same numbers as without swapping: the strip and counter moved intact.
    assertArrayEquals(plain.checksums(), swapped.checksums(), 0);
  }

  @Test
  void run_naivePolicy_hotPotatoesOnIdleHosts() {
    ExampleIterativeApp.Result r =
        ExampleIterativeApp.run(manager(new NaivePolicy(false)), 100, 10, Map.of(), 0);
    assertTrue(r.swaps().size() >= 8, r.swaps().toString());
  }

  @Test
  void state_unknownPart_isRejected() {
    SwapState a = new SwapState();
    a.register("x", () -> new byte[] {1}, b -> {});
    SwapState b = new SwapState();
    assertTrue(
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> b.restore(a.save()))
            .getMessage()
            .contains("'x'"));
  }

  @Test
  void dispatcher_startAndFinish_manageApplications() {
    SwapDispatcher d = new SwapDispatcher();
    d.start("fish", List.of("a", "b", "c", "d"), 2, new NaivePolicy(false), 2);
    SwapManager fish = d.manager("fish");
    assertEquals("naive", fish.policyName());
    assertEquals("a", fish.root());
    assertEquals(Map.of(0, "a", 1, "b"), fish.ranks());
    assertEquals(List.of(fish), d.managers());
    d.finish("fish");
    assertTrue(d.find("fish").isEmpty());
    assertTrue(
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> d.finish("fish"))
            .getMessage()
            .contains("'fish'"));
  }
}
