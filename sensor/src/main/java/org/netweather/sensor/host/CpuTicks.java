package org.netweather.sensor.host;

/**
 * Cumulative CPU time of the whole host, in ticks, split into busy and idle.
 *
 * <p>Only the difference between two snapshots means anything: {@link #busyCoresSince} turns it
 * into how many cores were busy on average between them.
 *
 * @param busy ticks spent running something (user, nice, system, irq, softirq, steal)
 * @param idle ticks spent idle or waiting for I/O (a waiting CPU is free for a new process)
 */
public record CpuTicks(long busy, long idle) {

  /**
   * Average number of busy cores between {@code earlier} and this snapshot, or NaN if no tick
   * elapsed (the OS updates its counters every 10 ms or so).
   */
  public double busyCoresSince(CpuTicks earlier, int cores) {
    long busyDelta = busy - earlier.busy;
    long total = busyDelta + (idle - earlier.idle);
    if (total <= 0 || busyDelta < 0) {
      return Double.NaN;
    }
    return cores * (double) busyDelta / total;
  }
}
