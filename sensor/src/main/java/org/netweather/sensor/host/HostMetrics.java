package org.netweather.sensor.host;

import java.util.OptionalLong;

/**
 * What the CPU and memory skills read about this host: processor count, load, ticks and memory.
 *
 * <p>Implementations are cheap to call (a few /proc reads) and thread-safe. A value the platform
 * cannot give is reported as NaN or empty rather than guessed, so the skills can fall back.
 */
public interface HostMetrics {

  /** Logical processors of the host, whatever share of them this process may use. */
  int logicalProcessors();

  /**
   * CPUs a process here can use: logical processors, lowered to the container's CPU quota when a
   * cgroup sets one (a 1.5-CPU quota on a 4-core host gives 1.5).
   */
  double cpus();

  /** One-minute load average, or NaN where the OS has none (Windows). */
  double loadAverage();

  /**
   * Tasks running or ready to run right now, not counting the caller, or NaN where unknown. This is
   * the instantaneous run queue that the load average smooths over a minute.
   */
  double runnableTasks();

  /** Cumulative host CPU ticks. */
  CpuTicks cpuTicks();

  /** Memory a new process could use without swapping (Linux {@code MemAvailable}), in bytes. */
  long availableMemoryBytes();

  /** Physical memory, in bytes. */
  long totalMemoryBytes();

  /** The memory limit of this process's cgroup in bytes, if one is set. */
  OptionalLong cgroupMemoryLimitBytes();

  /** Memory charged to this process's cgroup in bytes, if known. */
  OptionalLong cgroupMemoryUsageBytes();
}
