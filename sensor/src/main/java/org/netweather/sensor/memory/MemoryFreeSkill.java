package org.netweather.sensor.memory;

import java.util.OptionalLong;
import org.netweather.sensor.HostSkill;
import org.netweather.sensor.Reading;
import org.netweather.sensor.host.HostMetrics;

/**
 * The {@code memory.free} skill: MiB a new process could allocate here without paging.
 *
 * <pre>
 * The original calibrated a "base memory" by allocating until resident memory stopped growing and
 * subtracted the resident sets of running processes (docs/measurement.md, "Free memory"). Modern
 * kernels publish
 * that estimate themselves: Linux's MemAvailable counts free memory plus the page cache and slab
 * that can be reclaimed without swapping, which is what OSHI's "available" reads. So:
 *
 *   free = available                                  (no cgroup limit)
 *   free = min(available, limit - usage)              (inside a cgroup with a memory limit)
 * </pre>
 *
 * <p>A cgroup's usage includes its own page cache, so inside a container the figure errs low by the
 * reclaimable cache; that errs on the side of not promising memory that would page.
 */
public final class MemoryFreeSkill implements HostSkill {

  public static final String NAME = "memory.free";
  public static final String UNIT = "MiB";
  private static final double MIB = 1024.0 * 1024.0;

  private final HostMetrics host;

  public MemoryFreeSkill(HostMetrics host) {
    this.host = host;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String unit() {
    return UNIT;
  }

  @Override
  public Reading measure() {
    long free = Math.max(0, host.availableMemoryBytes());
    OptionalLong limit = host.cgroupMemoryLimitBytes();
    OptionalLong usage = host.cgroupMemoryUsageBytes();
    if (limit.isPresent() && usage.isPresent()) {
      free = Math.min(free, Math.max(0, limit.getAsLong() - usage.getAsLong()));
    } else if (limit.isPresent()) {
      free = Math.min(free, limit.getAsLong());
    }
    return Reading.of(free / MIB, UNIT);
  }
}
