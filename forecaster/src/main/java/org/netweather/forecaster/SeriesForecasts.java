package org.netweather.forecaster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.ForecastResult;
import org.netweather.model.SeriesPattern;

/**
 * One predictor {@link Battery} per series, fed in timestamp order, and the latest forecasts of
 * each as an immutable {@link Snapshot} that readers take without locking.
 *
 * <p>A measurement at or before the last one fed to a series is skipped: follow streams
 * overlap on reconnect, and a battery must see each measurement once, in order.
 *
 * <p>Thread-safety: feeding locks one series at a time; reads take the published snapshot.
 */
public final class SeriesForecasts {
  private final BatteryLayout layout;
  private final Map<String, State> states = new ConcurrentHashMap<>();
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  /** The forecasts of one series after its latest measurement. */
  public record Snapshot(String series, ForecastResult mse, ForecastResult mae,
      long lastTimestampMs, double lastValue) {
    public ForecastResult by(Criterion c) {
      return c == Criterion.MAE ? mae : mse;
    }
  }

  /** Told of every new snapshot, on the thread that fed the measurements. */
  public interface Listener {
    void updated(Snapshot snapshot);
  }

  private static final class State {
    final Battery battery;
    long lastTs = Long.MIN_VALUE;
    volatile Snapshot snapshot;

    State(Battery battery) {
      this.battery = battery;
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
    State s = states.computeIfAbsent(series, k -> new State(layout.newBattery()));
    int fed = 0;
    Snapshot snap;
    synchronized (s) {
      double last = Double.NaN;
      for (int i = 0; i < n; i++) {
        if (times[i] > s.lastTs && Double.isFinite(values[i])) {
          s.battery.observe(values[i]);
          s.lastTs = times[i];
          last = values[i];
          fed++;
        }
      }
      if (fed == 0) {
        return 0;
      }
      snap = new Snapshot(series, s.battery.forecast(Criterion.MSE),
          s.battery.forecast(Criterion.MAE), s.lastTs, last);
      s.snapshot = snap;
    }
    for (Listener l : listeners) {
      l.updated(snap);
    }
    return fed;
  }

  /** Series with a battery. */
  public int size() {
    return states.size();
  }

  public Optional<Snapshot> get(String series) {
    State s = states.get(series);
    return s == null || s.snapshot == null ? Optional.empty() : Optional.of(s.snapshot);
  }

  /** Snapshots of the series matching {@code pattern}, sorted by name. */
  public List<Snapshot> matching(SeriesPattern pattern) {
    List<Snapshot> out = new ArrayList<>();
    if (pattern.isExact()) {
      get(pattern.toString()).ifPresent(out::add);
      return out;
    }
    for (State s : states.values()) {
      Snapshot snap = s.snapshot;
      if (snap != null && pattern.matches(snap.series())) {
        out.add(snap);
      }
    }
    out.sort((a, b) -> a.series().compareTo(b.series()));
    return out;
  }
}
