package org.netweather.forecaster;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.ForecastResult;
import org.netweather.model.SeriesPattern;
import org.netweather.model.shard.ShardSet;
import org.netweather.model.shard.Shards;

/**
 * One predictor {@link Battery} per series, fed a {@link PointBatch} at a time in timestamp order,
 * and the forecasts of each, computed when asked for.
 *
 * <p>A measurement at or before the last one fed to a series is skipped: follow streams overlap on
 * reconnect, and a battery must see each measurement once, in order.
 *
 * <p>Cost. A batch entry costs one lookup of its series, whatever its number of points; a point
 * costs its battery update and nothing else (no object, no snapshot): forecasts are built only when
 * read, and watchers are told once per batch which series changed, so a forecast that no one reads
 * before the next measurement is never built. Per series the forecaster keeps the battery, a {@link
 * Series} holding it with the last measurement, and one map entry.
 *
 * <p>Thread-safety: feeding and reading lock one series at a time.
 */
public final class SeriesForecasts {
  private final BatteryLayout layout;
  private final ConcurrentHashMap<String, Series> states = new ConcurrentHashMap<>();
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  /** The forecasts of one series after its latest measurement. */
  public record Snapshot(
      String series,
      ForecastResult mse,
      ForecastResult mae,
      long lastTimestampMs,
      double lastValue) {
    public ForecastResult by(Criterion c) {
      return c == Criterion.MAE ? mae : mse;
    }
  }

  /** Told what changed, on the thread that fed the batch. */
  public interface Listener {
    /** {@code changed[0..n)} have new forecasts; the array is reused after the call. */
    void updated(Series[] changed, int n);

    /** {@code series} was deleted: it has no forecasts any more. */
    default void deleted(Series series) {}
  }

  /** One series' battery and last measurement; the handle listeners and readers get. */
  public static final class Series {
    private final String name;
    private final Battery battery;
    private long lastTs = Long.MIN_VALUE;
    private double lastValue = Double.NaN;
    private double periodMs; // smoothed spacing of measurements, for horizons in time
    private boolean deleted;
    private volatile WatchIndex.Match watchMatch;

    private Series(String name, Battery battery) {
      this.name = name;
      this.battery = battery;
    }

    public String name() {
      return name;
    }

    WatchIndex.Match watchMatch() {
      return watchMatch;
    }

    void watchMatch(WatchIndex.Match m) {
      watchMatch = m;
    }
  }

  private static final double PERIOD_GAIN = 0.05;

  /** Forecasts of the mean over a horizon of {@code steps} measurements. */
  public record Horizon(Snapshot forecasts, int steps) {}

  /**
   * The forecasts of the mean of {@code series} over the next {@code horizonMs}: {@code
   * round(horizonMs / period)} measurements (at least one), from a battery over the series' block
   * means ({@link Battery#horizon}). Empty if the series is unknown.
   *
   * @throws IllegalArgumentException if the horizon is more than {@link Battery#maxHorizonSteps()}
   *     periods
   * @throws IllegalStateException if the series has too little history for it yet
   */
  public Optional<Horizon> horizon(String series, double coverage, long horizonMs) {
    Series s = states.get(series);
    if (s == null) {
      return Optional.empty();
    }
    synchronized (s) {
      if (s.deleted || s.battery.count() == 0) {
        return Optional.empty();
      }
      double period = s.periodMs > 0 ? s.periodMs : horizonMs;
      long steps = Math.max(1, Math.round(horizonMs / period));
      if (steps > Battery.maxHorizonSteps()) {
        throw new IllegalArgumentException(
            "horizon_ms "
                + horizonMs
                + " is "
                + steps
                + " periods of "
                + series
                + "; at most "
                + Battery.maxHorizonSteps());
      }
      Battery aggregated = s.battery.horizon((int) steps);
      if (aggregated == null) {
        throw new IllegalStateException(
            series + " has too little history for a horizon of " + steps + " measurements yet");
      }
      return Optional.of(
          new Horizon(
              new Snapshot(
                  s.name,
                  aggregated.forecast(Criterion.MSE, coverage),
                  aggregated.forecast(Criterion.MAE, coverage),
                  s.lastTs,
                  s.lastValue),
              (int) steps));
    }
  }

  public SeriesForecasts(BatteryLayout layout) {
    this.layout = layout;
  }

  public void addListener(Listener l) {
    listeners.add(l);
  }

  public void removeListener(Listener l) {
    listeners.remove(l);
  }

  /** Feeds points of one series (sorted by time); returns how many were new. */
  public int observe(String series, long[] times, double[] values, int n) {
    PointBatch b = new PointBatch();
    b.startSeries(series);
    for (int i = 0; i < n; i++) {
      b.add(times[i], values[i]);
    }
    return apply(b);
  }

  /**
   * Applies a batch: first its deletions, then each entry's points (sorted by time within the
   * entry); tells listeners once. Returns how many points were new.
   */
  public int apply(PointBatch batch) {
    for (int i = 0; i < batch.deletedCount(); i++) {
      delete(batch.deletedSeries(i));
    }
    int entries = batch.entries();
    if (entries == 0) {
      return 0;
    }
    long[] times = batch.times();
    double[] values = batch.values();
    Series[] changed = new Series[entries];
    int changedCount = 0;
    int fed = 0;
    for (int e = 0; e < entries; e++) {
      int from = batch.from(e);
      int to = batch.to(e);
      int before = fed;
      Series s = series(batch.series(e));
      synchronized (s) {
        if (s.deleted) { // deleted by another feeder since the lookup: take the new one
          e--;
          continue;
        }
        Battery battery = s.battery;
        long lastTs = s.lastTs;
        double last = s.lastValue;
        for (int i = from; i < to; i++) {
          double v = values[i];
          if (times[i] > lastTs && Double.isFinite(v)) {
            if (lastTs != Long.MIN_VALUE) {
              double gap = times[i] - lastTs;
              s.periodMs = s.periodMs == 0 ? gap : s.periodMs + PERIOD_GAIN * (gap - s.periodMs);
            }
            battery.observe(v);
            lastTs = times[i];
            last = v;
            fed++;
          }
        }
        s.lastTs = lastTs;
        s.lastValue = last;
      }
      if (fed > before) {
        changed[changedCount++] = s;
      }
    }
    if (changedCount > 0) {
      for (Listener l : listeners) {
        l.updated(changed, changedCount);
      }
    }
    return fed;
  }

  private Series series(String name) {
    Series s = states.get(name);
    return s != null ? s : states.computeIfAbsent(name, k -> new Series(k, layout.newBattery()));
  }

  /**
   * Forgets a series: its battery and forecasts go, and later points start a new battery. Returns
   * whether it was known.
   */
  public boolean delete(String name) {
    Series s = states.remove(name);
    if (s == null) {
      return false;
    }
    synchronized (s) {
      s.deleted = true;
    }
    for (Listener l : listeners) {
      l.deleted(s);
    }
    return true;
  }

  /**
   * Forgets every series whose shard is not in {@code keep} (shards handed to another forecaster),
   * freeing their batteries; returns how many went.
   */
  public int retainShards(ShardSet keep) {
    int n = 0;
    for (String name : states.keySet()) {
      if (!keep.contains(shardOf(name)) && delete(name)) {
        n++;
      }
    }
    return n;
  }

  /**
   * The shard of a series name already checked (stored or followed), as {@link Shards#of(String)}
   * computes it, without checking the name again: that check costs some microseconds, ten times the
   * hash, and this runs for every series of every append; -1 (in no shard set) without a ':'.
   */
  static int shardOf(String series) {
    int colon = series.indexOf(':');
    if (colon < 0) {
      return -1;
    }
    int arrow = series.indexOf("->", colon + 1);
    return Shards.ofHost(series.substring(colon + 1, arrow < 0 ? series.length() : arrow));
  }

  /** Series with a battery. */
  public int size() {
    return states.size();
  }

  public Optional<Snapshot> get(String series) {
    return get(series, Battery.DEFAULT_COVERAGE);
  }

  /** Like {@link #get(String)}, with intervals at {@code coverage} (in [0.50, 0.99]). */
  public Optional<Snapshot> get(String series, double coverage) {
    Series s = states.get(series);
    return Optional.ofNullable(s == null ? null : snapshot(s, coverage));
  }

  /** The forecasts of {@code s} now; null if it has no measurement yet or was deleted. */
  public Snapshot snapshot(Series s) {
    return snapshot(s, Battery.DEFAULT_COVERAGE);
  }

  /** Like {@link #snapshot(Series)}, with intervals at {@code coverage}. */
  public Snapshot snapshot(Series s, double coverage) {
    synchronized (s) {
      if (s.deleted || s.battery.count() == 0) {
        return null;
      }
      return new Snapshot(
          s.name,
          s.battery.forecast(Criterion.MSE, coverage),
          s.battery.forecast(Criterion.MAE, coverage),
          s.lastTs,
          s.lastValue);
    }
  }

  /** Snapshots of the series matching {@code pattern}, sorted by name. */
  public List<Snapshot> matching(SeriesPattern pattern) {
    return matching(pattern, Battery.DEFAULT_COVERAGE);
  }

  /** Like {@link #matching(SeriesPattern)}, with intervals at {@code coverage}. */
  public List<Snapshot> matching(SeriesPattern pattern, double coverage) {
    List<Snapshot> out = new ArrayList<>();
    if (pattern.isExact()) {
      get(pattern.toString(), coverage).ifPresent(out::add);
      return out;
    }
    for (Series s : states.values()) {
      if (pattern.matches(s.name)) {
        Snapshot snap = snapshot(s, coverage);
        if (snap != null) {
          out.add(snap);
        }
      }
    }
    out.sort((a, b) -> a.series().compareTo(b.series()));
    return out;
  }
}
