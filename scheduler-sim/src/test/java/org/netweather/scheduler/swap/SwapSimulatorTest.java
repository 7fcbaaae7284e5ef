package org.netweather.scheduler.swap;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * docs/schedulers/swapping.md, "The simulator": FPH against naive where measurements are noisy or
 * swaps costly.
 */
class SwapSimulatorTest {
  private static SwapScenario named(String name) {
    return SwapScenario.table().stream()
        .filter(s -> s.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void fph_noisyOrCostlyScenarios_beatsNaiveInEverySeed() {
    for (String name : new String[] {"S4", "N1", "N2", "N3", "N4"}) {
      SwapScenario sc = named(name);
      for (long seed = 1; seed <= 3; seed++) {
        SwapSimulator.Run naive = SwapSimulator.run(sc, new NaivePolicy(false), seed, 2);
        SwapSimulator.Run fph =
            SwapSimulator.run(sc, new FphPolicy(FphParameters.defaults()), seed, 2);
        assertTrue(
            fph.makespan() < naive.makespan(),
            name + " seed " + seed + ": fph " + fph.makespan() + " vs naive " + naive.makespan());
        assertTrue(fph.swaps() < naive.swaps(), name + " seed " + seed);
      }
    }
  }

  @Test
  void fph_noisyScenarios_staysNearNotSwapping() {
    for (String name : new String[] {"N1", "N2", "N3", "N4"}) {
      SwapScenario sc = named(name);
      double none = 0;
      double fph = 0;
      for (long seed = 1; seed <= 3; seed++) {
        none += SwapSimulator.run(sc, null, seed, 2).makespan();
        fph += SwapSimulator.run(sc, new FphPolicy(FphParameters.defaults()), seed, 2).makespan();
      }
      assertTrue(fph < 1.05 * none, name + ": fph " + fph / 3 + " vs none " + none / 3);
    }
  }

  @Test
  void oracle_isALowerBound() {
    for (SwapScenario sc : SwapScenario.table()) {
      double oracle = SwapSimulator.oracle(sc, 1);
      assertTrue(oracle <= SwapSimulator.run(sc, null, 1, 2).makespan() + 1e-6, sc.name());
      assertTrue(
          oracle
              <= SwapSimulator.run(sc, new FphPolicy(FphParameters.defaults()), 1, 2).makespan()
                  + 1e-6,
          sc.name());
    }
  }
}
