package org.netweather.benchmarks.site;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A process's CPU time (user + system, from {@code /proc/PID/stat}), resident set (VmRSS from
 * {@code /proc/PID/status}) and open descriptors ({@code /proc/PID/fd}) at one instant.
 *
 * @param cpuMicros user + system CPU time so far, microseconds
 * @param rssBytes resident set size
 * @param descriptors open file descriptors (files, sockets, pipes)
 * @param nanos when it was taken, {@link System#nanoTime()}
 */
record ProcSample(long cpuMicros, long rssBytes, long descriptors, long nanos) {
  /** USER_HZ: the unit of utime and stime; 100 on every Linux this runs on. */
  private static final long TICKS_PER_SECOND = 100;

  static ProcSample of(long pid) {
    Path proc = Path.of("/proc", Long.toString(pid));
    try {
      String stat = Files.readString(proc.resolve("stat"));
      // Fields after the command name, which is in parentheses and may hold spaces.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      long rssKb = 0;
      for (String line : Files.readAllLines(proc.resolve("status"))) {
        if (line.startsWith("VmRSS:")) {
          rssKb = Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
      long fds;
      try (Stream<Path> s = Files.list(proc.resolve("fd"))) {
        fds = s.count();
      }
      return new ProcSample(
          ticks * 1_000_000 / TICKS_PER_SECOND, rssKb * 1024, fds, System.nanoTime());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read /proc of process " + pid, e);
    }
  }

  /** CPU microseconds spent between {@code earlier} and this sample. */
  long cpuSince(ProcSample earlier) {
    return cpuMicros - earlier.cpuMicros;
  }

  /** Share of one core used between {@code earlier} and this sample. */
  double coresSince(ProcSample earlier) {
    return (cpuMicros - earlier.cpuMicros) * 1000.0 / (nanos - earlier.nanos);
  }
}
