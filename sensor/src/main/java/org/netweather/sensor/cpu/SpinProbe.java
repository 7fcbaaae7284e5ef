package org.netweather.sensor.cpu;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.netweather.sensor.Ticker;

/**
 * Spins on the calling thread for a fixed wall time and reports the CPU time it got divided by the
 * wall time: the share of a core a new CPU-bound process receives now.
 *
 * <pre>
 * The original's active probe (docs/measurement.md, "CPU availability", activeCpu.c) forked a child
 * that spun for
 * activeLength ms; availability = CPU time received / wall time. A JVM thread stands in for the
 * child: the kernel schedules threads, not processes, so a spinning thread competes exactly like
 * a new single-threaded process at the same nice level.
 * </pre>
 *
 * <p>The length trades accuracy against cost. Linux's scheduler credits a newly woken task with up
 * to one scheduling latency (a few ms) of extra time, which over-reads short probes; one second
 * keeps that under 1% while a probe every few minutes costs well under 1% of a core.
 */
public final class SpinProbe implements ActiveCpuProbe {

  // Written, never read: the volatile store keeps the JIT from dropping the spin loop.
  @SuppressWarnings("UnusedVariable")
  private static volatile long sinkHole;

  private final long lengthNanos;
  private final Ticker wall;
  private final LongSupplier threadCpuNanos;

  /** A probe of {@code length} measured with the JVM's clocks. */
  public static SpinProbe create(Duration length) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    LongSupplier cpu =
        threads.isCurrentThreadCpuTimeSupported() ? threads::getCurrentThreadCpuTime : () -> -1;
    return new SpinProbe(length, Ticker.system(), cpu);
  }

  /**
   * @param threadCpuNanos CPU time of the calling thread in ns, or -1 where unsupported
   */
  SpinProbe(Duration length, Ticker wall, LongSupplier threadCpuNanos) {
    if (length.isNegative() || length.isZero()) {
      throw new IllegalArgumentException("probe length must be positive, was " + length);
    }
    this.lengthNanos = length.toNanos();
    this.wall = wall;
    this.threadCpuNanos = threadCpuNanos;
  }

  @Override
  public double probe() {
    long cpu0 = threadCpuNanos.getAsLong();
    if (cpu0 < 0) {
      return Double.NaN;
    }
    long start = wall.nanoTime();
    long now = start;
    long sink = 0;
    while (now - start < lengthNanos) {
      // A short burst of arithmetic between clock reads keeps the loop CPU-bound rather than
      // clock-bound; `sink` is returned through blackhole() so the JIT cannot drop the work.
      for (int i = 0; i < 1_000; i++) {
        sink = sink * 6364136223846793005L + 1442695040888963407L;
      }
      now = wall.nanoTime();
    }
    long cpu = threadCpuNanos.getAsLong() - cpu0;
    blackhole(sink);
    return Math.max(0, Math.min(1, (double) cpu / (now - start)));
  }

  @Override
  public Duration cost() {
    return Duration.ofNanos(lengthNanos);
  }

  private static void blackhole(long value) {
    sinkHole = value;
  }
}
