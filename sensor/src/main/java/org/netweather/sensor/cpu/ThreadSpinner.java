package org.netweather.sensor.cpu;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;

/**
 * Spins fresh threads, each a {@link SpinProbe}, and averages the shares they got. Fresh threads
 * on purpose: a new thread is placed by the scheduler like a new process, which is what the
 * probe stands in for. The process's CPU time over the same interval tells how much its other
 * threads used meanwhile.
 */
final class ThreadSpinner implements BalancedSpinProbe.Spinner {
  private final LongSupplier processCpuNanos = processCpuClock();

  private static LongSupplier processCpuClock() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os::getProcessCpuTime;
    }
    return () -> -1;
  }

  @Override
  public BalancedSpinProbe.Spin spin(int threads, Duration length) {
    long cpu0 = processCpuNanos.getAsLong();
    long wall0 = System.nanoTime();
    double share = threads == 1 ? SpinProbe.create(length).probe() : spinAll(threads, length);
    long wall = System.nanoTime() - wall0;
    long cpu1 = processCpuNanos.getAsLong();
    double own = cpu0 < 0 || cpu1 < 0 || Double.isNaN(share) ? 0
        : Math.max(0, (double) (cpu1 - cpu0) / wall - threads * share);
    return new BalancedSpinProbe.Spin(share, own);
  }

  private static double spinAll(int threads, Duration length) {
    double[] shares = new double[threads];
    CountDownLatch start = new CountDownLatch(1);
    Thread[] spinning = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      int slot = i;
      spinning[i] = new Thread(() -> {
        try {
          start.await();
          shares[slot] = SpinProbe.create(length).probe();
        } catch (InterruptedException e) {
          shares[slot] = Double.NaN;
        }
      }, "cpu-probe-" + i);
      spinning[i].setDaemon(true);
      spinning[i].start();
    }
    start.countDown();
    try {
      for (Thread t : spinning) {
        t.join();
      }
    } catch (InterruptedException e) {
      for (Thread t : spinning) {
        t.interrupt();
      }
      Thread.currentThread().interrupt();
      return Double.NaN;
    }
    double sum = 0;
    for (double s : shares) {
      sum += s; // NaN if any thread could not measure
    }
    return sum / threads;
  }
}
