package org.netweather.benchmarks.site;

/**
 * Plausible measurement values as a pure function of (series, timestamp), so the read-back at the
 * end can check values without keeping them: each series has its own level, a slow daily swing and
 * noise, at the precision a real sensor reports (CPU availability to 0.001, free memory to 0.1 MiB,
 * latency and connect time to 1 µs, bandwidth to 0.1 Mbit/s).
 */
final class ValueModel {
  private final long seed;

  ValueModel(long seed) {
    this.seed = seed;
  }

  double value(String series, int seriesIndex, long ts) {
    double level = unit(seriesIndex, 0);
    double swing = Math.sin(2 * Math.PI * (ts / 86_400_000.0 + unit(seriesIndex, 1)));
    double noise = unit(seriesIndex, ts) - 0.5;
    String resource = series.substring(0, series.indexOf(':'));
    return switch (resource) {
      case "cpu.availability" ->
          round(clamp(0.55 + 0.4 * level + 0.05 * swing + 0.1 * noise, 0, 1), 1000);
      case "memory.free" -> round(1024 + 14_000 * level + 500 * swing + 100 * noise, 10);
      case "tcp.latency" ->
          round(0.08 + 0.3 * level + 0.02 * swing + 0.04 * noise * noise * 4, 1000);
      case "tcp.bandwidth" -> round(940 * (0.8 + 0.2 * level) + 20 * swing + 40 * noise, 10);
      case "tcp.connect" -> round(0.15 + 0.4 * level + 0.03 * swing + 0.05 * Math.abs(noise), 1000);
      default -> throw new IllegalArgumentException("no model for " + series);
    };
  }

  /** A uniform number in [0, 1) from (series, salt), the same every time. */
  private double unit(int series, long salt) {
    long z = seed * 0x9E3779B97F4A7C15L + series * 0xBF58476D1CE4E5B9L + salt * 0x94D049BB133111EBL;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return (z >>> 11) * 0x1.0p-53;
  }

  private static double clamp(double v, double lo, double hi) {
    return Math.max(lo, Math.min(hi, v));
  }

  private static double round(double v, double per) {
    return Math.round(v * per) / per;
  }
}
