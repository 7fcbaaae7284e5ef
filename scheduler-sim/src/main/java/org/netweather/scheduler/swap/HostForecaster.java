package org.netweather.scheduler.swap;

/**
 * A small NWS-style forecaster for one host's corrected availability, with the level persistence
 * FPH needs; the live manager uses NetWeather's forecaster instead.
 *
 * <p>Battery: last value, running means of the last 5 and 20, exponential smoothing at 0.2; the
 * forecast is that of the predictor with the lowest cumulative absolute error, and the error
 * reported is its mean absolute error, as NWS does. A level ends when a sample leaves the current
 * level's mean by more than {@code LEVEL_JUMP}; τ = max(mean finished level length, age of the
 * current one), since for heavy-tailed durations residual life grows with age.
 */
final class HostForecaster {
  static final double LEVEL_JUMP = 0.15;
  private final double[] window = new double[20];
  private int count;
  private double smooth = Double.NaN;
  private final double[] err = new double[4];
  private double levelStart;
  private double levelSum;
  private int levelCount;
  private double finished;
  private int levels;

  void add(double now, double value) {
    if (count > 0) {
      double[] p = predictions();
      for (int k = 0; k < 4; k++) {
        err[k] += Math.abs(p[k] - value);
      }
    }
    window[count % window.length] = value;
    count++;
    smooth = Double.isNaN(smooth) ? value : smooth + 0.2 * (value - smooth);
    if (levelCount > 0 && Math.abs(value - levelSum / levelCount) > LEVEL_JUMP) {
      finished += now - levelStart;
      levels++;
      levelStart = now;
      levelSum = 0;
      levelCount = 0;
    }
    if (levelCount == 0 && count == 1) {
      levelStart = now;
    }
    levelSum += value;
    levelCount++;
  }

  private double[] predictions() {
    return new double[] {window[(count - 1) % window.length], mean(5), mean(20), smooth};
  }

  private double mean(int n) {
    int k = Math.min(n, count);
    double s = 0;
    for (int i = 1; i <= k; i++) {
      s += window[(count - i) % window.length];
    }
    return s / k;
  }

  private int best() {
    int b = 0;
    for (int k = 1; k < 4; k++) {
      if (err[k] < err[b]) {
        b = k;
      }
    }
    return b;
  }

  double forecast() {
    return predictions()[best()];
  }

  double error() {
    return count <= 1 ? 0 : err[best()] / (count - 1);
  }

  double persistence(double now, double fallback) {
    double mean = levels == 0 ? fallback : finished / levels;
    return Math.max(mean, now - levelStart);
  }
}
