package org.netweather.sensor.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BalancedSpinProbeTest {
  private final List<String> runs = new ArrayList<>();

  /** A spinner that reports {@code one} for one thread and {@code all} for several. */
  private BalancedSpinProbe probe(int cores, double one, double all) {
    return new BalancedSpinProbe(
        Duration.ofSeconds(1),
        cores,
        (threads, length) -> {
          runs.add(threads + "x" + length.toMillis() + "ms");
          return new BalancedSpinProbe.Spin(threads == 1 ? one : all, 0);
        });
  }

  @Test
  void twoCores_twoCompetitors_usesTheRunWithOneThreadPerCore() {
    // 3 tasks on 2 cores: the single thread shared a core all along (0.5, as if n = 3). With
    // 2 probe threads the 4 tasks spread evenly: s = 2 / 4, so n = 2 and a new process gets 2/3.
    assertEquals(2.0 / 3, probe(2, 0.5, 0.5).probe(), 1e-9);
    assertEquals(List.of("1x500ms", "2x166ms", "2x166ms", "2x166ms"), runs);
  }

  @Test
  void twoCores_oneCompetitor_usesTheSingleThreadRun() {
    // 2 probe threads + 1 competitor is lopsided (one thread got its core alone): s = 0.64
    // implies n = 1.125, odd, so that run is not trusted; the single thread's run balances.
    assertEquals(0.99, probe(2, 0.99, 0.64).probe(), 1e-9);
  }

  @Test
  void twoCores_threeCompetitors_usesTheSingleThreadRun() {
    // n = 2 / 0.5 - 1 = 3 from the single thread (4 tasks, even); the 5-task run says 3.2.
    assertEquals(0.5, probe(2, 0.5, 0.385).probe(), 1e-9);
  }

  @Test
  void twoCores_idle_fullCore() {
    assertEquals(1.0, probe(2, 1.0, 1.0).probe(), 1e-9);
  }

  @Test
  void neitherRunBalanced_averagesTheirCompetition() {
    // 4 cores: s = 0.45 with one thread gives n = 7.89 (8 + 1 tasks, not a multiple of 4);
    // s = 0.4 with four gives n = 6 (10 tasks, neither): n is their mean, 6.94.
    double n = ((4 / 0.45 - 1) + (4 / 0.4 - 4)) / 2;
    assertEquals(4 / (n + 1), probe(4, 0.45, 0.4).probe(), 1e-9);
    assertEquals(0.5035, probe(4, 0.45, 0.4).probe(), 1e-4);
    assertEquals(8, runs.size(), "on 4 cores an unbalanced pair is normal: one look per probe");
  }

  @Test
  void twoCores_neitherRunBalanced_looksAgainAndUsesTheSecondLook() {
    // 1 competitor, and something else ran during the first look: the single thread got 0.717
    // (n = 1.79) and the per-core threads 0.6 (n = 1.33); on 2 cores a steady load balances one
    // run, so the probe looks again. Second look: 0.996 alone (n = 1.008, balanced) -> 0.996.
    // Averaging the first look would have said n = 1.56, 0.78.
    double[][] looks = {{0.717, 0.6}, {0.996, 0.62}};
    int[] look = {-1};
    BalancedSpinProbe p =
        new BalancedSpinProbe(
            Duration.ofSeconds(1),
            2,
            (threads, length) -> {
              runs.add(threads + "x");
              if (threads == 1) {
                look[0]++;
              }
              return new BalancedSpinProbe.Spin(looks[look[0]][threads == 1 ? 0 : 1], 0);
            });
    assertEquals(2 / (2 / 0.996 - 1 + 1), p.probe(), 1e-9);
    assertEquals(List.of("1x", "2x", "2x", "2x", "1x", "2x", "2x", "2x"), runs);
  }

  @Test
  void twoCores_neitherLookBalanced_averagesTheSecond() {
    // Both looks read n = 1.79 alone and 1.33 per core: the second pair's mean, 1.56, is used.
    double n = ((2 / 0.717 - 1) + (2 / 0.6 - 2)) / 2;
    assertEquals(2 / (n + 1), probe(2, 0.717, 0.6).probe(), 1e-9);
    assertEquals(8, runs.size());
  }

  @Test
  void quotaOfOneAndAHalfCores_singleProcessStillGetsAWholeCore() {
    // Two threads share the 1.5-core quota (0.75 each: n = 0.67, lopsided by its rounding); one
    // thread alone gets its full core, and that run (n = 1, 1 + 1 even) is the one used.
    assertEquals(1.0, probe(2, 1.0, 0.75).probe(), 1e-9);
  }

  @Test
  void oneCore_orMany_spinsOneThreadForTheWholeLength() {
    assertEquals(0.3, probe(1, 0.3, 0.9).probe(), 1e-9);
    assertEquals(0.7, probe(16, 0.7, 0.9).probe(), 1e-9);
    assertEquals(List.of("1x1000ms", "1x1000ms"), runs);
  }

  @Test
  void ownOtherThreads_areNotCountedAsCompetitors() {
    // 2 cores, 2 competitors, and this JVM's compiler used 0.4 of a core during the probe:
    // 4 probe threads' worth of tasks plus the compiler shared the cores, s = 0.4 each. Without
    // the correction n = 2 / 0.4 - 2 = 3; with it n = (2 - 0.4) / 0.4 - 2 = 2.
    BalancedSpinProbe p =
        new BalancedSpinProbe(
            Duration.ofSeconds(1),
            2,
            (threads, length) -> new BalancedSpinProbe.Spin(threads == 1 ? 0.45 : 0.4, 0.4));
    assertEquals(2.0 / 3, p.probe(), 1e-9);
  }

  @Test
  void perCoreRun_isTheMedianOfThree_soOnePiledUpSpinIsVotedOut() {
    // Per-core spins read 0.5, 0.455 (threads piled on one core) and 0.5: the median, 0.5,
    // gives n = 2 and 2/3; the mean (0.485) would have given n = 2.12 and 0.64.
    double[] perCore = {0.5, 0.455, 0.5};
    int[] next = {0};
    BalancedSpinProbe p =
        new BalancedSpinProbe(
            Duration.ofSeconds(1),
            2,
            (threads, length) ->
                new BalancedSpinProbe.Spin(threads == 1 ? 0.6 : perCore[next[0]++], 0));
    assertEquals(2.0 / 3, p.probe(), 1e-9);
    assertEquals(3, next[0]);
  }

  @Test
  void failedSpin_nan() {
    assertTrue(Double.isNaN(probe(2, Double.NaN, 0.5).probe()));
  }

  @Test
  void cost_countsEveryThread() {
    assertEquals(Duration.ofMillis(1500), probe(2, 1, 1).cost());
    assertEquals(Duration.ofMillis(2500), probe(4, 1, 1).cost());
    assertEquals(Duration.ofSeconds(1), probe(8, 1, 1).cost());
  }

  @Test
  void realThreads_reportAFraction() {
    // Linux JVMs measure thread CPU time, so real spinning threads always get some share.
    double v = BalancedSpinProbe.create(Duration.ofMillis(40)).probe();
    assertTrue(v > 0 && v <= 1, "got " + v);
  }
}
