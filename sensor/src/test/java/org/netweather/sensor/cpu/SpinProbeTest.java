package org.netweather.sensor.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.FakeTicker;

class SpinProbeTest {

  @Test
  void probe_threadGetsHalfTheWallTime_reportsHalf() {
    FakeTicker wall = new FakeTicker();
    AtomicLong cpu = new AtomicLong();
    // Every clock read, 1 ms of wall time passes and the thread got 0.5 ms of it.
    SpinProbe probe =
        new SpinProbe(
            Duration.ofMillis(100),
            () -> {
              wall.advance(1_000_000);
              cpu.addAndGet(500_000);
              return wall.nanoTime();
            },
            cpu::get);

    assertEquals(0.5, probe.probe(), 0.01);
  }

  @Test
  void probe_threadCpuTimeUnsupported_nan() {
    SpinProbe probe = new SpinProbe(Duration.ofMillis(1), new FakeTicker(), () -> -1);

    assertTrue(Double.isNaN(probe.probe()));
  }

  @Test
  void create_realClocks_reportsAFraction() {
    double v = SpinProbe.create(Duration.ofMillis(20)).probe();

    assertTrue(Double.isNaN(v) || (v >= 0 && v <= 1), "got " + v);
  }
}
