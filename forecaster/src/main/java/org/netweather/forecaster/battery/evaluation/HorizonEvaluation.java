package org.netweather.forecaster.battery.evaluation;

import java.util.Arrays;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.ForecastResult;

/**
 * Replays a trace and scores forecasts of the mean over the next horizon against the mean of what
 * actually followed.
 *
 * <p>The horizon is a duration; on a trace it is k = round(horizon / median spacing) steps (at
 * least 1). From the warm-up on, every k steps (non-overlapping windows, so every measurement is
 * scored once), before the battery sees measurement t, three forecasts of mean(x_t .. x_{t+k-1})
 * are taken: the battery's horizon forecast ({@link Battery#horizon}, by MAE, with its interval at
 * the requested coverage); the one-step served forecast taken as flat; and the last value, the
 * yardstick every error is divided by.
 */
public final class HorizonEvaluation {
  private final BatteryLayout layout;
  private final int warmup;
  private final double coverage;
  private final long horizonMillis;

  /** Scores horizon forecasts of {@code horizonMillis} with intervals at {@code coverage}. */
  public HorizonEvaluation(BatteryLayout layout, int warmup, double coverage, long horizonMillis) {
    if (horizonMillis <= 0) {
      throw new IllegalArgumentException("horizon must be positive: " + horizonMillis + " ms");
    }
    this.layout = layout;
    this.warmup = warmup;
    this.coverage = coverage;
    this.horizonMillis = horizonMillis;
  }

  /**
   * One trace's horizon figures.
   *
   * @param name the trace
   * @param steps the horizon in steps of the trace
   * @param scored horizon windows scored
   * @param horizon MAE of the horizon forecast over last value's
   * @param flat MAE of the one-step served forecast taken as the mean, over last value's
   * @param coverage share of window means inside the horizon forecast's interval
   * @param width mean width of that interval over last value's MAE
   */
  public record Result(
      String name,
      int steps,
      int scored,
      double horizon,
      double flat,
      double coverage,
      double width) {}

  /** Steps of {@code trace} in the horizon: the horizon over the median spacing, at least one. */
  public int steps(Trace trace) {
    long[] t = trace.timestamps();
    if (t.length < 2) {
      return 1;
    }
    long[] gaps = new long[t.length - 1];
    for (int i = 1; i < t.length; i++) {
      gaps[i - 1] = t[i] - t[i - 1];
    }
    Arrays.sort(gaps);
    long spacing = Math.max(1, gaps[gaps.length / 2]);
    return (int)
        Math.max(
            1, Math.min(Battery.maxHorizonSteps(), Math.round((double) horizonMillis / spacing)));
  }

  public Result evaluate(Trace trace) {
    int k = steps(trace);
    double[] v = trace.values();
    Battery battery = layout.newBattery();
    double horizonErr = 0;
    double flatErr = 0;
    double lastErr = 0;
    double widths = 0;
    int covered = 0;
    int intervals = 0;
    int scored = 0;
    for (int t = 0; t < v.length; t++) {
      if (t >= Math.max(warmup, 1) && (t - warmup) % k == 0 && t + k <= v.length) {
        double mean = 0;
        for (int i = t; i < t + k; i++) {
          mean += v[i] / k;
        }
        Battery aggregated = battery.horizon(k);
        if (aggregated != null) {
          ForecastResult f = aggregated.forecast(Criterion.MAE, coverage);
          scored++;
          horizonErr += Math.abs(mean - f.value());
          flatErr += Math.abs(mean - battery.forecast(Criterion.MAE).value());
          lastErr += Math.abs(mean - v[t - 1]);
          if (Double.isFinite(f.lower()) && Double.isFinite(f.upper())) {
            intervals++;
            covered += f.lower() <= mean && mean <= f.upper() ? 1 : 0;
            widths += f.upper() - f.lower();
          }
        }
      }
      battery.observe(v[t]);
    }
    return new Result(
        trace.name(),
        k,
        scored,
        horizonErr / lastErr,
        flatErr / lastErr,
        intervals == 0 ? Double.NaN : (double) covered / intervals,
        intervals == 0 ? Double.NaN : widths / intervals / (lastErr / scored));
  }
}
