package org.netweather.forecaster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import org.netweather.model.SeriesPattern;

/**
 * Which watchers want which series, remembered on each series: an update is offered to the watchers
 * whose patterns match without matching any pattern again. The match is computed the first time a
 * series changes after a watcher came or went (a version number says when), so its cost is paid
 * once per series per change of watchers, not once per measurement per watcher per pattern: a
 * site's proxies watch two patterns per host of their clusters.
 *
 * <p>Thread-safety: any thread may subscribe and cancel; {@link #updated} and {@link #deleted} may
 * be called from several feeders at once (each series from one at a time, as {@link
 * SeriesForecasts} does).
 */
final class WatchIndex implements SeriesForecasts.Listener {
  /** Where matched series go. */
  interface Watcher {
    /** {@code series} changed; called once per change, under no lock of the index. */
    void add(SeriesForecasts.Series series);

    /** Every series of one update was added: send what can be sent. */
    void flush();

    /** {@code series} was deleted. */
    void forget(SeriesForecasts.Series series);
  }

  private record Subscription(SeriesPattern[] patterns, Watcher watcher) {
    boolean wants(String series) {
      for (SeriesPattern p : patterns) {
        if (p.matches(series)) {
          return true;
        }
      }
      return false;
    }
  }

  /** A series' cached match: the watchers that want it, as of {@code version}. */
  record Match(long version, Watcher[] watchers) {}

  private static final Watcher[] NONE = new Watcher[0];

  private volatile Subscription[] subscriptions = new Subscription[0];
  private volatile long version;
  // Series no watcher wants share one Match per version instead of holding their own.
  private volatile Match nobody = new Match(0, NONE);

  /** Starts offering the series {@code patterns} match to {@code watcher}. */
  synchronized void subscribe(List<SeriesPattern> patterns, Watcher watcher) {
    Subscription[] next = Arrays.copyOf(subscriptions, subscriptions.length + 1);
    next[next.length - 1] = new Subscription(patterns.toArray(new SeriesPattern[0]), watcher);
    publish(next);
  }

  /** Stops offering anything to {@code watcher}. */
  synchronized void cancel(Watcher watcher) {
    List<Subscription> next = new ArrayList<>(Arrays.asList(subscriptions));
    if (next.removeIf(s -> s.watcher() == watcher)) {
      publish(next.toArray(new Subscription[0]));
    }
  }

  private void publish(Subscription[] next) {
    long v = version + 1;
    nobody = new Match(v, NONE);
    subscriptions = next;
    version = v; // written last: a reader that sees v also sees the subscriptions of v
  }

  int watcherCount() {
    return subscriptions.length;
  }

  @Override
  public void updated(SeriesForecasts.Series[] changed, int n) {
    if (subscriptions.length == 0) {
      return;
    }
    IdentityHashMap<Watcher, Boolean> touched = new IdentityHashMap<>();
    for (int i = 0; i < n; i++) {
      SeriesForecasts.Series s = changed[i];
      for (Watcher w : watchersOf(s)) {
        w.add(s);
        touched.put(w, Boolean.TRUE);
      }
    }
    for (Watcher w : touched.keySet()) {
      w.flush();
    }
  }

  @Override
  public void deleted(SeriesForecasts.Series series) {
    for (Watcher w : watchersOf(series)) {
      w.forget(series);
    }
  }

  private Watcher[] watchersOf(SeriesForecasts.Series s) {
    long v = version;
    Match m = s.watchMatch();
    if (m != null && m.version() == v) {
      return m.watchers();
    }
    Subscription[] subs = subscriptions;
    List<Watcher> found = null;
    for (Subscription sub : subs) {
      if (sub.wants(s.name())) {
        if (found == null) {
          found = new ArrayList<>(2);
        }
        found.add(sub.watcher());
      }
    }
    Match fresh;
    if (found == null) {
      Match shared = nobody;
      fresh = shared.version() == v ? shared : new Match(v, NONE);
    } else {
      fresh = new Match(v, found.toArray(NONE));
    }
    s.watchMatch(fresh);
    return fresh.watchers();
  }
}
