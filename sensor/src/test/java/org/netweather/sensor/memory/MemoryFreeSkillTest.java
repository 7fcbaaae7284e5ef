package org.netweather.sensor.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.host.CpuTicks;
import org.netweather.sensor.host.HostMetrics;

class MemoryFreeSkillTest {

  private static final long MIB = 1L << 20;

  private static HostMetrics host(long available, OptionalLong limit, OptionalLong usage) {
    return new HostMetrics() {
      @Override
      public int logicalProcessors() {
        return 1;
      }

      @Override
      public double cpus() {
        return 1;
      }

      @Override
      public double loadAverage() {
        return 0;
      }

      @Override
      public double runnableTasks() {
        return 0;
      }

      @Override
      public CpuTicks cpuTicks() {
        return new CpuTicks(0, 0);
      }

      @Override
      public long availableMemoryBytes() {
        return available;
      }

      @Override
      public long totalMemoryBytes() {
        return 16 * 1024 * MIB;
      }

      @Override
      public OptionalLong cgroupMemoryLimitBytes() {
        return limit;
      }

      @Override
      public OptionalLong cgroupMemoryUsageBytes() {
        return usage;
      }
    };
  }

  @Test
  void measure_noCgroup_availableInMiB() {
    MemoryFreeSkill skill =
        new MemoryFreeSkill(host(3000 * MIB, OptionalLong.empty(), OptionalLong.empty()));

    assertEquals(3000, skill.measure().value(), 1e-9);
    assertEquals("MiB", skill.measure().unit());
    assertEquals("memory.free", skill.name());
  }

  @Test
  void measure_cgroupHeadroomSmaller_reportsHeadroom() {
    MemoryFreeSkill skill =
        new MemoryFreeSkill(
            host(3000 * MIB, OptionalLong.of(1024 * MIB), OptionalLong.of(900 * MIB)));

    assertEquals(124, skill.measure().value(), 1e-9);
  }

  @Test
  void measure_cgroupLimitLarger_reportsHostAvailable() {
    MemoryFreeSkill skill =
        new MemoryFreeSkill(
            host(500 * MIB, OptionalLong.of(8192 * MIB), OptionalLong.of(100 * MIB)));

    assertEquals(500, skill.measure().value(), 1e-9);
  }

  @Test
  void measure_cgroupOverLimit_zero() {
    MemoryFreeSkill skill =
        new MemoryFreeSkill(
            host(500 * MIB, OptionalLong.of(100 * MIB), OptionalLong.of(120 * MIB)));

    assertEquals(0, skill.measure().value(), 1e-9);
  }
}
