package org.netweather.sensor.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.Reading;
import org.netweather.sensor.host.CpuTicks;
import org.netweather.sensor.host.HostMetrics;

class CpuAvailabilitySkillTest {

  /** Two cores; tests set the run queue and the busy share of the ticks. */
  static class FakeHost implements HostMetrics {
    double runnable;
    double load;
    double busyShare;
    long busy;
    long idle;

    @Override
    public int logicalProcessors() {
      return 2;
    }

    @Override
    public double cpus() {
      return 2;
    }

    @Override
    public double loadAverage() {
      return load;
    }

    @Override
    public double runnableTasks() {
      return runnable;
    }

    @Override
    public CpuTicks cpuTicks() {
      busy += Math.round(1000 * busyShare);
      idle += Math.round(1000 * (1 - busyShare));
      return new CpuTicks(busy, idle);
    }

    @Override
    public long availableMemoryBytes() {
      return 0;
    }

    @Override
    public long totalMemoryBytes() {
      return 0;
    }

    @Override
    public OptionalLong cgroupMemoryLimitBytes() {
      return OptionalLong.empty();
    }

    @Override
    public OptionalLong cgroupMemoryUsageBytes() {
      return OptionalLong.empty();
    }
  }

  @Test
  void measure_threeWorkersOnTwoCores_reportsHalfACore() throws Exception {
    FakeHost host = new FakeHost();
    host.runnable = 3;
    host.busyShare = 1.0;
    host.load = 3;
    CpuAvailabilitySkill skill =
        new CpuAvailabilitySkill(host, () -> 0.5, CpuAvailabilityOptions.defaults(), d -> {});

    Reading first = skill.measure();
    Reading second = skill.measure();

    assertEquals("cpu.availability", skill.name());
    assertEquals(0.5, first.value(), 1e-12);
    assertEquals(1.0, first.extras().get("probed"));
    assertEquals(0.5, second.value(), 1e-12);
    assertEquals(0.0, second.extras().get("probed"));
  }

  @Test
  void measure_workersStopBetweenProbes_followsPassive() throws Exception {
    FakeHost host = new FakeHost();
    host.runnable = 2;
    host.busyShare = 1.0;
    CpuAvailabilitySkill skill =
        new CpuAvailabilitySkill(host, () -> 2.0 / 3, CpuAvailabilityOptions.defaults(), d -> {});
    skill.measure();

    host.runnable = 0;
    host.busyShare = 0.0;
    Reading r = skill.measure();

    assertEquals(1.0, r.value(), 1e-12);
  }

  @Test
  void options_defaults_probeAtMostEveryTwentyChecks() {
    CpuAvailabilityOptions d = CpuAvailabilityOptions.defaults();

    assertEquals(20, d.minChecksBetweenProbes());
    assertEquals(
        1,
        new CpuAvailabilityOptions(
                Duration.ofSeconds(10), Duration.ofMillis(10), 5, 0.5, 1, Duration.ZERO)
            .minChecksBetweenProbes());
  }

  @Test
  void measure_noisyRunQueue_averagedOverSamples() throws Exception {
    FakeHost host =
        new FakeHost() {
          int reads;

          @Override
          public double runnableTasks() {
            // Alternates 1 and 5 around a true average of 3 competitors.
            return reads++ % 2 == 0 ? 1 : 5;
          }
        };
    host.busyShare = 1.0;
    List<Duration> slept = new ArrayList<>();
    CpuAvailabilitySkill skill =
        new CpuAvailabilitySkill(
            host, () -> Double.NaN, CpuAvailabilityOptions.defaults(), slept::add);

    Reading r = skill.measure();

    assertEquals(0.5, r.value(), 1e-12);
    assertEquals(9, slept.size());
    assertEquals(Duration.ofMillis(10), slept.get(0));
  }
}
