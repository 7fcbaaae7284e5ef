package org.netweather.scheduler.swap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/schedulers/swapping.md, worked cases W1–W4. */
class SwapPolicyTest {
  private static SwapScenario s1() {
    return SwapScenario.table().get(0);
  }

  @Test
  void naive_hotPotato_swapsAboutOncePerMeasurement() {
    SwapSimulator.Run naive = SwapSimulator.run(s1(), new NaivePolicy(false), 1, 2);
    // About 180 measurements in 1836 s; the prototype counted 229 swaps.
    assertTrue(naive.swaps() > 150, "naive swaps " + naive.swaps());
    assertEquals(1836 + 2.0 * naive.swaps(), naive.makespan(), 1e-6);
  }

  @Test
  void correctedPolicies_hotPotato_neverSwap() {
    assertEquals(0, SwapSimulator.run(s1(), new NaivePolicy(true), 1, 2).swaps());
    SwapSimulator.Run fph = SwapSimulator.run(s1(), new FphPolicy(FphParameters.defaults()), 1, 2);
    assertEquals(0, fph.swaps());
    assertEquals(1836, fph.makespan(), 1e-6);
  }

  @Test
  void gate_tableOfCases_swapsExactlyWhenBothConditionsHold() {
    PaybackGate g = new PaybackGate(0.03, 1.2);
    // delta, T, R, H, C, expected
    Object[][] cases = {
      {0.1, 1.0, 100L, 50.0, 2.0, true}, // 0.1·50 = 5 > 2.4, 10 % > 3 %
      {0.1, 1.0, 20L, 50.0, 2.0, false}, // 0.1·20 = 2 < 2.4: too few iterations left
      {0.1, 1.0, 100L, 20.0, 2.0, false}, // horizon too short
      {0.02, 1.0, 10_000L, 10_000.0, 2.0, false}, // pays back but below θ
      {0.031, 1.0, 10_000L, 10_000.0, 2.0, true},
      {0.1, 1.0, 100L, 23.9, 2.0, false}, // 2.39 < 2.4
      {0.1, 1.0, 100L, 24.1, 2.0, true}
    };
    for (Object[] c : cases) {
      assertEquals(
          c[5],
          g.accept((double) c[0], (double) c[1], (long) c[2], (double) c[3], (double) c[4]),
          java.util.Arrays.toString(c));
    }
  }

  private static SwapPolicy.Epoch epoch(double now, Cooldown cd, HostView... hosts) {
    return new SwapPolicy.Epoch(
        now, List.of(hosts), 1000, 1, 0.02, 0, 5, (a, b) -> Double.POSITIVE_INFINITY, cd);
  }

  @Test
  void fph_loadedActiveHost_swapsForTheIdleOne() {
    SwapPolicy.Epoch e =
        epoch(
            0,
            new Cooldown(),
            new HostView("a", true, 3, 0.33, 0.01, 600),
            new HostView("b", true, 1, 1.0, 0.01, 600),
            new HostView("c", false, 0, 1.0, 0.01, 600));
    assertEquals(
        List.of(new SwapPolicy.Swap("a", "c")), new FphPolicy(FphParameters.defaults()).decide(e));
  }

  @Test
  void fph_noisyCandidate_isJudgedByItsErrorMargin() {
    // c looks 10 % better but its error margin (z·e = 0.5·0.4) eats the gain.
    SwapPolicy.Epoch e =
        epoch(
            0,
            new Cooldown(),
            new HostView("a", true, 1.1, 0.9, 0.01, 600),
            new HostView("c", false, 0, 1.0, 0.4, 600));
    assertEquals(List.of(), new FphPolicy(FphParameters.defaults()).decide(e));
  }

  @Test
  void cooldown_hostSwappedOut_cannotReturnBeforeCdTimesCost() {
    Cooldown cd = new Cooldown();
    cd.swappedOut("a", 100, 5, 2);
    assertFalse(cd.eligible("a", 109.9));
    assertTrue(cd.eligible("a", 110));
    // FPH respects it: a is the only better host but is cooling down.
    SwapPolicy.Epoch early =
        epoch(
            105,
            cd,
            new HostView("b", true, 3, 0.3, 0, 600),
            new HostView("a", false, 0, 1.0, 0, 600));
    assertEquals(List.of(), new FphPolicy(FphParameters.defaults()).decide(early));
    SwapPolicy.Epoch later =
        epoch(
            110,
            cd,
            new HostView("b", true, 3, 0.3, 0, 600),
            new HostView("a", false, 0, 1.0, 0, 600));
    assertEquals(1, new FphPolicy(FphParameters.defaults()).decide(later).size());
  }

  @Test
  void manager_swaps_moveTheRootPointerAndTellTheCurrentRoot() {
    SwapManager m =
        new SwapManager("fish", List.of("p0", "p1", "p2", "pN"), 2, new NaivePolicy(true), 2);
    assertEquals("p0", m.root());
    SwapPolicy.Epoch e = epoch(0, m.cooldown());
    m.force("p0", "p2");
    SwapManager.Event first = m.swapPoint(e).get(0);
    assertEquals("p0", first.toldRoot());
    assertEquals(0, first.rank());
    assertEquals("p2", m.root());
    m.force("p2", "pN");
    SwapManager.Event second = m.swapPoint(e).get(0);
    assertEquals("p2", second.toldRoot()); // the message went to the new root, not to p0
    assertEquals("pN", m.root());
    // Swapping a non-root rank leaves the root where it is.
    m.force("p1", "p0");
    assertEquals("pN", m.swapPoint(e).get(0).toldRoot());
    assertEquals("pN", m.root());
  }

  @Test
  void selfLoad_activeHost_subtractsOwnProcess() {
    assertEquals(1.0, SelfLoad.availability(1.0, true), 1e-12);
    assertEquals(0.5, SelfLoad.availability(1.0, false), 1e-12);
    assertEquals(1.0 / 3, SelfLoad.availability(3.0, true), 1e-12);
  }
}
