package org.netweather.memoryhost;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.WatchResponse;
import org.netweather.model.SeriesPattern;

/**
 * Fans acknowledged appends out to watchers. A new watcher gets the stored points after its
 * starting point and then every later append, with nothing missed or repeated in between,
 * because subscribing and publishing take the same lock. Each watcher has a bounded queue; one
 * that falls behind by more than {@link #MAX_QUEUED} messages is ended, so a slow reader never
 * holds up the writer or other watchers.
 */
final class WatchHub {
  static final int MAX_QUEUED = 10_000;
  private static final int POINTS_PER_MESSAGE = 1000;

  private final List<Watcher> watchers = new CopyOnWriteArrayList<>();
  private final Executor executor;

  /** Where a watcher's messages go (the gRPC stream, in the daemon). */
  interface Sink {
    boolean isReady();

    void send(WatchResponse message);

    void fail(String reason);
  }

  WatchHub(Executor executor) {
    this.executor = executor;
  }

  /** Backlog source: the stored points of a series after a time. */
  interface Backlog {
    Map<String, RawSeries.Points> after(List<SeriesPattern> patterns, long sinceMs);
  }

  synchronized Watcher subscribe(List<SeriesPattern> patterns, long sinceMs, boolean liveOnly,
      Backlog backlog, Sink sink) {
    Watcher w = new Watcher(patterns, sink);
    if (!liveOnly) {
      for (Map.Entry<String, RawSeries.Points> e : backlog.after(patterns, sinceMs).entrySet()) {
        RawSeries.Points p = e.getValue();
        for (int from = 0; from < p.size(); from += POINTS_PER_MESSAGE) {
          w.queue.add(message(e.getKey(), p, from, Math.min(p.size(), from + POINTS_PER_MESSAGE)));
        }
      }
    }
    w.limit = w.queue.size() + MAX_QUEUED;
    watchers.add(w);
    w.drainLater();
    return w;
  }

  /** Watchers subscribed and not yet cancelled or failed. */
  int watcherCount() {
    return watchers.size();
  }

  /** Called by the writer after points are durable. */
  synchronized void publish(Map<String, RawSeries.Points> appended) {
    for (Watcher w : watchers) {
      WatchResponse.Builder msg = null;
      for (Map.Entry<String, RawSeries.Points> e : appended.entrySet()) {
        if (w.wants(e.getKey())) {
          if (msg == null) {
            msg = WatchResponse.newBuilder();
          }
          RawSeries.Points p = e.getValue();
          msg.addBatches(message(e.getKey(), p, 0, p.size()).getBatches(0));
        }
      }
      if (msg != null) {
        w.offer(msg.build());
      }
    }
  }

  private static WatchResponse message(String series, RawSeries.Points p, int from, int to) {
    SeriesPoints.Builder sp = SeriesPoints.newBuilder().setSeries(series);
    for (int i = from; i < to; i++) {
      sp.addPoints(Measurement.newBuilder().setTimestampMs(p.times()[i])
          .setValue(p.values()[i]));
    }
    return WatchResponse.newBuilder().addBatches(sp).build();
  }

  /** One subscriber. */
  final class Watcher {
    private final List<SeriesPattern> patterns;
    private final Sink sink;
    private final ArrayDeque<WatchResponse> queue = new ArrayDeque<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    private int limit;
    private volatile boolean closed;

    private Watcher(List<SeriesPattern> patterns, Sink sink) {
      this.patterns = new ArrayList<>(patterns);
      this.sink = sink;
    }

    boolean wants(String series) {
      for (SeriesPattern p : patterns) {
        if (p.matches(series)) {
          return true;
        }
      }
      return false;
    }

    private void offer(WatchResponse msg) {
      boolean overflow;
      synchronized (queue) {
        overflow = queue.size() >= limit;
        if (!overflow) {
          queue.add(msg);
        }
      }
      if (overflow) {
        cancel();
        sink.fail("watcher fell more than " + MAX_QUEUED
            + " messages behind; resume from the last timestamp seen");
        return;
      }
      drainLater();
    }

    /** Sends what the sink will take now; call again when it becomes ready. */
    void drainLater() {
      if (!closed) {
        executor.execute(this::drain);
      }
    }

    private void drain() {
      while (!closed && draining.compareAndSet(false, true)) {
        try {
          while (!closed && sink.isReady()) {
            WatchResponse next;
            synchronized (queue) {
              next = queue.poll();
              if (limit > MAX_QUEUED) {
                limit = Math.max(MAX_QUEUED, limit - 1);
              }
            }
            if (next == null) {
              break;
            }
            sink.send(next);
          }
        } finally {
          draining.set(false);
        }
        synchronized (queue) {
          if (queue.isEmpty() || !sink.isReady()) {
            return;
          }
        }
      }
    }

    /** Stops delivery and forgets the watcher. */
    void cancel() {
      closed = true;
      watchers.remove(this);
    }
  }
}
