package org.netweather.scheduler.jacobi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netweather.scheduler.Examples;
import org.netweather.scheduler.frame.Estimate;
import org.netweather.scheduler.frame.HostResources;
import org.netweather.scheduler.frame.ResourceSnapshot;
import org.netweather.scheduler.frame.SnapshotReader;
import org.netweather.scheduler.jacobi.JacobiSchedule.Candidate;

/** Worked cases J6–J8 of docs/schedulers/jacobi.md, from the example snapshots where they exist. */
class JacobiSchedulerTest {
  private static final double GIB = 1 << 30;
  private static final JacobiOptions APPLES =
      JacobiOptions.defaults().withSolver(JacobiOptions.Solver.APPLES);

  private static ResourceSnapshot example(String name) {
    return SnapshotReader.read(Examples.path("jacobi/" + name));
  }

  private static HostResources host(String name, double secondsPerPoint, double memory) {
    return HostResources.of(name, 1.0, memory, Map.of("secondsPerPoint", secondsPerPoint));
  }

  /** J6 with the WAN at {@code wan} bytes/s. */
  private static ResourceSnapshot twoSites(double wan) {
    ResourceSnapshot.Builder b =
        ResourceSnapshot.builder("j6")
            .host(host("A1", 1e-6, GIB))
            .host(host("A2", 1e-6, GIB))
            .host(host("B1", 0.8e-6, GIB))
            .host(host("B2", 0.8e-6, GIB));
    b.symmetricBandwidth("A1", "A2", 1.25e6).symmetricBandwidth("B1", "B2", 1.25e6);
    for (String a : List.of("A1", "A2")) {
      for (String bb : List.of("B1", "B2")) {
        b.symmetricBandwidth(a, bb, wan);
      }
    }
    return b.build();
  }

  @Test
  void schedule_j6_choosesB1AndB2At0_4128() {
    JacobiSchedule s =
        JacobiScheduler.schedule(
            example("j6.json"), JacobiProblem.ofSize(1000), JacobiOptions.defaults());
    assertEquals(List.of("B1", "B2"), s.hosts());
    assertEquals(List.of(500, 500), s.widths());
    assertEquals(0.4128, s.predictedSeconds(), 1e-9);
    assertEquals("B1", s.locus());
    assertEquals(List.of("B1", "B2", "A1", "A2"), s.list());
  }

  @Test
  void schedule_j6_candidateTableMatchesTheSpec() {
    List<Candidate> c =
        JacobiScheduler.schedule(example("j6.json"), JacobiProblem.ofSize(1000), APPLES)
            .candidates();
    assertEquals(0.8, c.get(0).predictedSeconds(), 1e-9);
    assertEquals(0.4128, c.get(1).predictedSeconds(), 1e-9);
    assertEquals(0.8091, c.get(2).balancedSeconds(), 1e-4);
    assertTrue(
        c.get(2).verdict().contains("negative area at B2: -4571 points (F1)"), c.get(2).verdict());
    assertEquals(0.6350, c.get(3).balancedSeconds(), 1e-4);
    assertTrue(c.get(3).verdict().contains("B2: -222222"), c.get(3).verdict());
    assertFalse(c.get(3).accepted());
  }

  @Test
  void schedule_j6WithFasterWan_usesAllFourAt0_3950() {
    JacobiSchedule s =
        JacobiScheduler.schedule(twoSites(0.05e6), JacobiProblem.ofSize(1000), APPLES);
    assertEquals(List.of("B1", "B2", "A1", "A2"), s.hosts());
    assertEquals(0.3950, s.balancedSeconds(), 1e-4);
    assertEquals(s.balancedSeconds(), s.predictedSeconds(), 2e-3);
  }

  @Test
  void schedule_j6BuiltInMemory_sameAsExampleFile() {
    JacobiSchedule s =
        JacobiScheduler.schedule(
            twoSites(0.02e6), JacobiProblem.ofSize(1000), JacobiOptions.defaults());
    assertEquals(List.of("B1", "B2"), s.hosts());
    assertEquals(0.4128, s.predictedSeconds(), 1e-9);
  }

  @Test
  void schedule_j7At5000_splitsEvenlyOverTheFourSpNodes() {
    JacobiSchedule s =
        JacobiScheduler.schedule(example("j7.json"), JacobiProblem.ofSize(5000), APPLES);
    assertEquals(List.of("SP1", "SP2", "SP3", "SP4"), s.hosts());
    assertEquals(0.628, s.predictedSeconds(), 1e-3);
    List<Candidate> c = s.candidates();
    assertTrue(c.get(0).verdict().contains("SP1 needs 381.5 MiB"), c.get(0).verdict());
    assertTrue(c.get(1).verdict().contains("SP1 needs 190.7 MiB"), c.get(1).verdict());
    assertEquals(0.656, c.get(4).predictedSeconds(), 1e-3); // adding a workstation is slower
  }

  @Test
  void schedule_j7At6000AsPublished_findsNoSchedule() {
    JacobiSchedule s =
        JacobiScheduler.schedule(example("j7.json"), JacobiProblem.ofSize(6000), APPLES);
    assertFalse(s.feasible());
    assertEquals(8, s.candidates().size());
    assertTrue(s.candidates().stream().noneMatch(Candidate::accepted));
    assertTrue(
        s.candidates().get(7).verdict().contains("needs 136.3 MiB, has 128.0 MiB"),
        s.candidates().get(7).verdict());
  }

  @Test
  void schedule_j7At6000Capped_findsTheEightHostSchedule() {
    JacobiSchedule s =
        JacobiScheduler.schedule(
            example("j7.json"), JacobiProblem.ofSize(6000), JacobiOptions.defaults());
    assertEquals(List.of("SP1", "SP2", "SP3", "SP4", "WS1", "WS2", "WS3", "WS4"), s.hosts());
    assertEquals(1.009, s.balancedSeconds(), 5e-4);
    assertEquals(1.009, s.predictedSeconds(), 1e-3);
    assertEquals(6000, s.widths().stream().mapToInt(Integer::intValue).sum());
    for (int i = 0; i < 8; i++) {
      double mib = 6000.0 * s.widths().get(i) * 16 / (1 << 20);
      assertTrue(mib <= (i < 4 ? 128 : 64), s.hosts().get(i) + " holds " + mib + " MiB");
    }
  }

  /** J8: hosts on a line where the nearest to the tail is not the nearest to the locus. */
  private static ResourceSnapshot line() {
    double[] x = {0, 1, -1.5, 2.2, -3};
    ResourceSnapshot.Builder b = ResourceSnapshot.builder("line");
    for (int i = 0; i < x.length; i++) {
      b.host(host("h" + i, 1e-6, GIB));
    }
    for (int i = 0; i < x.length; i++) {
      for (int j = i + 1; j < x.length; j++) {
        // c(i,j) = 16 B / bw = |x_i − x_j| µs.
        b.symmetricBandwidth("h" + i, "h" + j, 16 / (Math.abs(x[i] - x[j]) * 1e-6));
      }
    }
    return b.build();
  }

  @Test
  void order_j8Chain_followsTheTail() {
    JacobiSchedule s =
        JacobiScheduler.schedule(line(), JacobiProblem.ofSize(100), JacobiOptions.defaults());
    assertEquals(List.of("h0", "h1", "h3", "h2", "h4"), s.list());
  }

  @Test
  void order_j8LocusDistance_sortsByDistanceToLocus() {
    JacobiSchedule s =
        JacobiScheduler.schedule(
            line(),
            JacobiProblem.ofSize(100),
            JacobiOptions.defaults().withOrdering(HostChain.Ordering.LOCUS_DISTANCE));
    assertEquals(List.of("h0", "h1", "h2", "h3", "h4"), s.list());
  }

  @Test
  void order_j6LocusDistance_sameAsChain() {
    JacobiSchedule s =
        JacobiScheduler.schedule(
            example("j6.json"),
            JacobiProblem.ofSize(1000),
            JacobiOptions.defaults().withOrdering(HostChain.Ordering.LOCUS_DISTANCE));
    assertEquals(List.of("B1", "B2", "A1", "A2"), s.list());
    assertEquals(List.of("B1", "B2"), s.hosts());
  }

  @Test
  void order_maxDistance_stopsTheList() {
    JacobiSchedule s =
        JacobiScheduler.schedule(
            example("j6.json"),
            JacobiProblem.ofSize(1000),
            JacobiOptions.defaults().withMaxDistance(100e-6));
    assertEquals(List.of("B1", "B2"), s.list());
  }

  @Test
  void schedule_pinnedLocus_startsThere() {
    JacobiSchedule s =
        JacobiScheduler.schedule(
            example("j6.json"),
            JacobiProblem.ofSize(1000),
            JacobiOptions.defaults().withLocus("A2"));
    assertEquals(List.of("A2", "A1", "B1", "B2"), s.list());
    assertEquals(List.of("A1", "A2"), List.copyOf(new java.util.TreeSet<>(s.hosts())));
  }

  @Test
  void schedule_unknownLocus_rejected() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            JacobiScheduler.schedule(
                example("j6.json"),
                JacobiProblem.ofSize(1000),
                JacobiOptions.defaults().withLocus("Z")));
  }

  @Test
  void schedule_hostsWithoutWhatTheModelNeeds_excludedWithReasons() {
    ResourceSnapshot s =
        ResourceSnapshot.builder("x")
            .host(host("ok", 1e-6, GIB))
            .host(HostResources.of("noParam", 1.0, GIB, Map.of()))
            .host(
                new HostResources(
                    "noCpu",
                    Estimate.UNKNOWN,
                    Estimate.of(GIB),
                    Estimate.UNKNOWN,
                    Estimate.UNKNOWN,
                    Map.of("secondsPerPoint", 1e-6)))
            .host(
                new HostResources(
                    "staleCpu",
                    new Estimate(1, 0, true),
                    Estimate.of(GIB),
                    Estimate.UNKNOWN,
                    Estimate.UNKNOWN,
                    Map.of("secondsPerPoint", 1e-6)))
            .build();
    JacobiSchedule j =
        JacobiScheduler.schedule(s, JacobiProblem.ofSize(10), JacobiOptions.defaults());
    assertEquals(List.of("ok"), j.hosts());
    assertEquals(
        Map.of(
            "noParam",
            "no secondsPerPoint parameter",
            "noCpu",
            "no CPU availability forecast",
            "staleCpu",
            "stale CPU availability forecast"),
        j.excluded());
  }

  @Test
  void schedule_noUsableHost_infeasible() {
    ResourceSnapshot s =
        ResourceSnapshot.builder("x").host(HostResources.of("a", 1.0, GIB, Map.of())).build();
    JacobiSchedule j =
        JacobiScheduler.schedule(s, JacobiProblem.ofSize(10), JacobiOptions.defaults());
    assertFalse(j.feasible());
    assertTrue(Double.isNaN(j.predictedSeconds()));
  }

  @Test
  void schedule_errorMargin_shiftsWorkAwayFromTheUncertainHost() {
    ResourceSnapshot s =
        ResourceSnapshot.builder("x")
            .host(
                new HostResources(
                    "sure",
                    Estimate.of(0.5, 0),
                    Estimate.of(GIB),
                    Estimate.UNKNOWN,
                    Estimate.UNKNOWN,
                    Map.of("secondsPerPoint", 1e-6)))
            .host(
                new HostResources(
                    "unsure",
                    Estimate.of(0.5, 0.25),
                    Estimate.of(GIB),
                    Estimate.UNKNOWN,
                    Estimate.UNKNOWN,
                    Map.of("secondsPerPoint", 1e-6)))
            .symmetricBandwidth("sure", "unsure", 1e12)
            .build();
    JacobiSchedule plain =
        JacobiScheduler.schedule(s, JacobiProblem.ofSize(1000), JacobiOptions.defaults());
    JacobiSchedule robust =
        JacobiScheduler.schedule(
            s, JacobiProblem.ofSize(1000), JacobiOptions.defaults().withErrorMargin(1));
    assertEquals(500, plain.widths().get(0));
    // unsure plans with P·(1 + 0.25/0.5) = 1.5P: it gets 2/5 of the grid.
    assertEquals(List.of("sure", "unsure"), robust.hosts());
    assertEquals(List.of(600, 400), robust.widths());
  }

  @Test
  void schedule_interiorStripEmptyUnderCaps_dropsItAndRechains() {
    // L and M are neighbours by bandwidth, but M's links carry a 1 s round trip each way, so
    // M in the middle of [L, M, R] costs 2 s per iteration in borders alone. L and M together
    // cannot hold the grid, so k = 2 fails; at k = 3 the capped solver leaves M empty, drops
    // it and re-chains L next to R.
    ResourceSnapshot.Builder b =
        ResourceSnapshot.builder("drop")
            .host(host("L", 1e-6, 4000 * 16.0))
            .host(host("M", 1e-6, 1000 * 16.0))
            .host(host("R", 2e-6, GIB));
    Estimate slow = Estimate.of(1.0); // round trip, seconds
    b.link("L", "M", Estimate.of(1e9), slow)
        .link("M", "L", Estimate.of(1e9), slow)
        .link("M", "R", Estimate.of(1e9), slow)
        .link("R", "M", Estimate.of(1e9), slow)
        .symmetricBandwidth("L", "R", 1e9);
    JacobiSchedule s =
        JacobiScheduler.schedule(b.build(), JacobiProblem.ofSize(100), JacobiOptions.defaults());
    assertEquals(List.of("L", "M", "R"), s.list());
    assertEquals(List.of("L", "R"), s.hosts());
    assertEquals(List.of(40, 60), s.widths());
    Candidate k3 = s.candidates().get(2);
    assertTrue(k3.verdict().contains("dropped empty strips: M"), k3.verdict());
    assertEquals(0.012, s.predictedSeconds(), 1e-5);
    assertNotEquals(
        JacobiScheduler.schedule(b.build(), JacobiProblem.ofSize(100), APPLES).hosts(), s.hosts());
  }
}
