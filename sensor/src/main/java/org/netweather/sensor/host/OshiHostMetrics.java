package org.netweather.sensor.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.CentralProcessor.TickType;
import oshi.hardware.GlobalMemory;
import oshi.software.os.CgroupInfo;
import oshi.software.os.OperatingSystem;

/**
 * {@link HostMetrics} read through OSHI, plus the Linux run queue from {@code /proc/loadavg}.
 *
 * <p>OSHI caches most readings for about 300 ms, which is far below any sensible check period. The
 * run queue is not in OSHI's API; it is the fourth field of {@code /proc/loadavg} ({@code
 * running/total}) and is NaN on other systems.
 *
 * <p>Thread-safety: safe for concurrent use; OSHI's objects are.
 */
public final class OshiHostMetrics implements HostMetrics {

  private static final Path LOADAVG = Path.of("/proc/loadavg");

  private final CentralProcessor processor;
  private final GlobalMemory memory;
  private final OperatingSystem os;

  /** Reads this host through a fresh {@link SystemInfo}. */
  public OshiHostMetrics() {
    this(new SystemInfo());
  }

  OshiHostMetrics(SystemInfo info) {
    this.processor = info.getHardware().getProcessor();
    this.memory = info.getHardware().getMemory();
    this.os = info.getOperatingSystem();
  }

  @Override
  public int logicalProcessors() {
    return processor.getLogicalProcessorCount();
  }

  @Override
  public double cpus() {
    double logical = processor.getLogicalProcessorCount();
    double quota = cgroup().getEffectiveCpus();
    // A quota is a hard ceiling on what any process in the container gets, whatever the host has.
    return quota > 0 ? Math.min(logical, quota) : logical;
  }

  @Override
  public double loadAverage() {
    double load = processor.getSystemLoadAverage(1)[0];
    return load < 0 ? Double.NaN : load;
  }

  /** Threads of this process in state R, at least 1 (the caller). */
  private static int ownRunningThreads() {
    int running = 0;
    try (java.nio.file.DirectoryStream<java.nio.file.Path> tasks =
        Files.newDirectoryStream(java.nio.file.Path.of("/proc/self/task"))) {
      for (java.nio.file.Path t : tasks) {
        try {
          String stat = Files.readString(t.resolve("stat"));
          int close = stat.lastIndexOf(')');
          if (close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 'R') {
            running++;
          }
        } catch (IOException e) {
          // the thread ended meanwhile
        }
      }
    } catch (IOException e) {
      return 1;
    }
    return Math.max(1, running);
  }

  @Override
  public double runnableTasks() {
    try {
      String[] fields = Files.readString(LOADAVG).trim().split("\\s+", -1);
      int slash = fields[3].indexOf('/');
      // This process's own running threads (the reader itself, and the JIT compiler or GC
      // threads of a young JVM) are the sensor's overhead, not competitors a new process
      // would meet.
      return Math.max(0, Integer.parseInt(fields[3].substring(0, slash)) - ownRunningThreads());
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  @Override
  public CpuTicks cpuTicks() {
    long[] t = processor.getSystemCpuLoadTicks();
    long busy =
        t[TickType.USER.getIndex()]
            + t[TickType.NICE.getIndex()]
            + t[TickType.SYSTEM.getIndex()]
            + t[TickType.IRQ.getIndex()]
            + t[TickType.SOFTIRQ.getIndex()]
            + t[TickType.STEAL.getIndex()];
    long idle = t[TickType.IDLE.getIndex()] + t[TickType.IOWAIT.getIndex()];
    return new CpuTicks(busy, idle);
  }

  @Override
  public long availableMemoryBytes() {
    return memory.getAvailable();
  }

  @Override
  public long totalMemoryBytes() {
    return memory.getTotal();
  }

  @Override
  public OptionalLong cgroupMemoryLimitBytes() {
    long limit = cgroup().getMemoryLimit();
    return limit > 0 && limit != CgroupInfo.UNLIMITED_MEMORY
        ? OptionalLong.of(limit)
        : OptionalLong.empty();
  }

  @Override
  public OptionalLong cgroupMemoryUsageBytes() {
    long usage = cgroup().getMemoryUsage();
    return usage >= 0 ? OptionalLong.of(usage) : OptionalLong.empty();
  }

  private CgroupInfo cgroup() {
    return os.getCgroupInfo();
  }
}
