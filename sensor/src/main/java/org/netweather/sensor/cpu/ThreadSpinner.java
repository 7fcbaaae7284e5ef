package org.netweather.sensor.cpu;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.netweather.sensor.Ticker;

/**
 * Spins fresh threads, each a {@link SpinProbe}, and averages the shares they got. Fresh threads on
 * purpose: a new thread is placed by the scheduler like a new process, which is what the probe
 * stands in for. The process's CPU time over the same interval, less the spinning threads' own,
 * tells how much its other threads used meanwhile.
 *
 * <p>The first fifth of each spin (at most {@value #MAX_SETTLE_MS} ms) is not counted: new threads
 * sometimes start piled on one core, and the scheduler spreads them within milliseconds; a
 * long-running job never notices that start, so neither should the probe.
 */
final class ThreadSpinner implements BalancedSpinProbe.Spinner {
  static final long MAX_SETTLE_MS = 100;

  private final Ticker wall;
  private final LongSupplier processCpuNanos = processCpuClock();
  private final ThreadMXBean threadClock = ManagementFactory.getThreadMXBean();

  ThreadSpinner(Ticker wall) {
    this.wall = wall;
  }

  private static LongSupplier processCpuClock() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os::getProcessCpuTime;
    }
    return () -> -1;
  }

  @Override
  public BalancedSpinProbe.Spin spin(int threads, Duration length) {
    Duration settle = length.dividedBy(5);
    if (settle.toMillis() > MAX_SETTLE_MS) {
      settle = Duration.ofMillis(MAX_SETTLE_MS);
    }
    Duration measured = length.minus(settle);
    double[] shares = new double[threads];
    long[] spent = new long[threads]; // each spinning thread's CPU time, settling included
    long cpu0 = processCpuNanos.getAsLong();
    long wall0 = wall.nanoTime();
    Thread[] spinning = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      int slot = i;
      Duration settleFor = settle;
      spinning[i] =
          new Thread(
              () -> {
                long start = threadClock.getCurrentThreadCpuTime();
                SpinProbe.create(settleFor).probe();
                shares[slot] = SpinProbe.create(measured).probe();
                spent[slot] = threadClock.getCurrentThreadCpuTime() - start;
              },
              "cpu-probe-" + i);
      spinning[i].setDaemon(true);
      spinning[i].start();
    }
    try {
      for (Thread t : spinning) {
        t.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new BalancedSpinProbe.Spin(Double.NaN, 0);
    }
    long elapsed = wall.nanoTime() - wall0;
    long cpu1 = processCpuNanos.getAsLong();
    double sum = 0;
    long spinningCpu = 0;
    for (int i = 0; i < threads; i++) {
      sum += shares[i]; // NaN if any thread could not measure
      spinningCpu += spent[i];
    }
    double own =
        cpu0 < 0 || cpu1 < 0 ? 0 : Math.max(0, (double) (cpu1 - cpu0 - spinningCpu) / elapsed);
    return new BalancedSpinProbe.Spin(sum / threads, own);
  }
}
