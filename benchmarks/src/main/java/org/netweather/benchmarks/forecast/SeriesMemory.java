package org.netweather.benchmarks.forecast;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.netweather.forecaster.PointBatch;
import org.netweather.forecaster.SeriesForecasts;
import org.netweather.forecaster.battery.BatteryLayout;

/**
 * Memory the forecaster keeps per series: creates N series with a few points each in a {@link
 * SeriesForecasts} (what the daemon holds per series: battery, series handle, map entry) and prints
 * the growth of RSS and of the heap after GC, per series, beside the battery's own estimate. Fix
 * the heap so that RSS means something:
 *
 * <pre>
 *   BENCH_JAVA_OPTS='-Xms4g -Xmx4g' benchmarks/run forecast.SeriesMemory [SERIES [POINTS]]
 * </pre>
 *
 * <p>Result (OpenJDK 17, G1, -Xms4g -Xmx4g, 100 000 series, 5 points each, batch ingest): RSS 24.2
 * KiB per series, heap after GC 20.5 KiB, battery estimate 19.1 KiB.
 */
public final class SeriesMemory {
  private SeriesMemory() {}

  public static void main(String[] args) throws Exception {
    int series = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int points = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    BatteryLayout layout = BatteryLayout.standard();
    SeriesForecasts forecasts = new SeriesForecasts(layout);
    long rss0 = rss();
    long heap0 = heapAfterGc();
    PointBatch batch = new PointBatch();
    for (int s = 0; s < series; s++) {
      batch.startSeries("cpu.availability:host" + s);
      for (int i = 0; i < points; i++) {
        batch.add(1_000L * (i + 1), 0.5 + 0.01 * ((s + i) % 7));
      }
      if (batch.entries() == 1_000) {
        forecasts.apply(batch);
        batch.clear();
      }
    }
    forecasts.apply(batch);
    long heap1 = heapAfterGc();
    long rss1 = rss();
    System.out.printf(
        Locale.ROOT,
        "%d series, %d points each: RSS %.1f KiB/series, heap after"
            + " GC %.1f KiB/series, battery estimate %.1f KiB%n",
        forecasts.size(),
        points,
        (rss1 - rss0) / 1024.0 / series,
        (heap1 - heap0) / 1024.0 / series,
        layout.stateBytesPerSeries() / 1024.0);
  }

  private static long heapAfterGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static long rss() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    return 0;
  }
}
