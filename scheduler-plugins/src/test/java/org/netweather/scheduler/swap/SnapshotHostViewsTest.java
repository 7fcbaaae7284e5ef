package org.netweather.scheduler.swap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.scheduler.frame.ResourceSnapshot;
import org.netweather.scheduler.frame.SnapshotReader;

/** Host views from snapshot files, as a proxy's {@code nws snapshot --json} writes them. */
class SnapshotHostViewsTest {
  private static final String SNAPSHOT =
      """
      {"cluster": "lab",
       "hosts": [
        {"host": "a", "cpuAvailability": {"value": 0.5, "mae": 0.05}},
        {"host": "b", "cpuAvailability": {"value": 0.5, "mae": 0.05}},
        {"host": "c", "cpuAvailability": {"value": 0.25}, "parameters": {"speed": 2}},
        {"host": "d", "cpuAvailability": {"value": 0.9, "stale": true}},
        {"host": "e"}],
       "pairs": [{"src": "a", "dst": "b", "bandwidth": {"value": 80}}]}
      """;

  private static ResourceSnapshot snapshot(Path dir) throws Exception {
    Path f = dir.resolve("lab.json");
    Files.writeString(f, SNAPSHOT);
    return SnapshotReader.read(f);
  }

  private static List<HostView> views(ResourceSnapshot s, String... active) {
    return SnapshotHostViews.views(
        s, List.of("a", "b", "c", "d", "e"), Set.of(active)::contains, 60);
  }

  @Test
  void views_activeHostAlone_selfLoadCorrectedToAWholeCpu(@TempDir Path dir) throws Exception {
    List<HostView> v = views(snapshot(dir), "a");

    // a new process would get 0.5 on both; on a that half is shared with our own process.
    assertEquals(1.0, v.get(0).loadAverage(), 1e-12);
    assertEquals(1.0, v.get(0).forecast(), 1e-12);
    assertEquals(0.5, v.get(1).forecast(), 1e-12);
    assertTrue(v.get(0).active() && !v.get(1).active());
    assertEquals(60, v.get(0).persistence());
  }

  @Test
  void views_errorPushedThroughTheCorrection(@TempDir Path dir) throws Exception {
    List<HostView> v = views(snapshot(dir), "a");

    // idle: a ± 0.05 → half spread 0.05; active: capped at 1 above, 1/(1/0.45 − 1) below.
    assertEquals(0.05, v.get(1).error(), 1e-12);
    assertEquals((1 - 0.45 / 0.55) / 2, v.get(0).error(), 1e-12);
  }

  @Test
  void views_speedScalesAndLoadIsTheRunQueue(@TempDir Path dir) throws Exception {
    List<HostView> idle = views(snapshot(dir));
    List<HostView> active = views(snapshot(dir), "c");

    assertEquals(3.0, idle.get(2).loadAverage(), 1e-12);
    assertEquals(2 * 0.25, idle.get(2).forecast(), 1e-12);
    assertEquals(2 * 1 / 3.0, active.get(2).forecast(), 1e-12);
  }

  @Test
  void views_staleOrMissingForecast_neverChosenNorSwappedOutBlind(@TempDir Path dir)
      throws Exception {
    List<HostView> idle = views(snapshot(dir));
    List<HostView> active = views(snapshot(dir), "d", "e");

    assertEquals(0, idle.get(3).forecast());
    assertEquals(0, idle.get(4).forecast());
    assertEquals(1, active.get(3).forecast());
    assertTrue(Double.isNaN(active.get(4).loadAverage()));
  }

  @Test
  void views_hostNotInSnapshot_named(@TempDir Path dir) throws Exception {
    ResourceSnapshot s = snapshot(dir);

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SnapshotHostViews.views(s, List.of("a", "zz"), h -> false, 60));
    assertTrue(e.getMessage().contains("zz"), e.getMessage());
  }

  @Test
  void bandwidth_measuredInBytesPerSecond_fallbackElsewhere(@TempDir Path dir) throws Exception {
    var bw = SnapshotHostViews.bandwidth(snapshot(dir), 1e6);

    assertEquals(1e7, bw.applyAsDouble("a", "b"), 1e-6);
    assertEquals(1e6, bw.applyAsDouble("b", "a"));
    assertEquals(1e6, bw.applyAsDouble("a", "nowhere"));
  }

  @Test
  void liveForecasts_fetchesOncePerRefreshAndKeepsLastOnFailure(@TempDir Path dir)
      throws Exception {
    ResourceSnapshot s = snapshot(dir);
    AtomicInteger fetches = new AtomicInteger();
    double[] clock = {0};
    LiveForecasts live =
        new LiveForecasts(
            () -> {
              if (fetches.incrementAndGet() == 3) {
                throw new IllegalStateException("proxy down");
              }
              return s;
            },
            10,
            60,
            0,
            () -> clock[0]);
    SwapManager m =
        new SwapManager(
            "app", List.of("a", "b", "c"), 1, new FphPolicy(FphParameters.defaults()), 2);

    SwapPolicy.Epoch e = live.epoch(m, 0, 100, 1, 0, 1e6, 0.5);
    clock[0] = 5;
    live.epoch(m, 5, 95, 1, 0, 1e6, 0.5);
    clock[0] = 10;
    live.epoch(m, 10, 90, 1, 0, 1e6, 0.5);
    clock[0] = 20;
    SwapPolicy.Epoch last = live.epoch(m, 20, 80, 1, 0, 1e6, 0.5);

    assertEquals(3, fetches.get());
    assertEquals(List.of("a", "b", "c"), e.hosts().stream().map(HostView::name).toList());
    assertEquals(1.0, e.hosts().get(0).forecast(), 1e-12);
    assertEquals(0.5 + 1e6 / 1e7, e.swapCost("a", "b"), 1e-9);
    assertEquals(Double.POSITIVE_INFINITY, last.swapCost("a", "c"));
  }

  @Test
  void liveForecasts_noSnapshotYet_fails() {
    LiveForecasts live =
        new LiveForecasts(
            () -> {
              throw new IllegalStateException("no proxy serves cluster 'lab'");
            },
            10,
            60,
            0,
            () -> 0);

    assertThrows(IllegalStateException.class, live::snapshot);
  }
}
