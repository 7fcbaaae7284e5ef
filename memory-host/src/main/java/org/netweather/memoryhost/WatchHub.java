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
import org.netweather.memoryhost.store.Points;
import org.netweather.model.SeriesPattern;
import org.netweather.model.shard.ShardSet;
import org.netweather.model.shard.Shards;

/**
 * Fans acknowledged appends out to watchers. A new watcher gets the stored points after its
 * starting point and then every later append, with nothing missed or repeated in between: its
 * backlog is read from a view of the store taken under the same lock that publishing holds, and the
 * store commits and publishes a group under that lock too. The backlog is read lazily, a message at
 * a time as the stream takes it, so a watcher of every series holds one message of it in memory,
 * not the whole history. Each watcher has a bounded queue of live messages; one that falls behind
 * by more than {@link #MAX_QUEUED} of them is ended, so a slow reader never holds up the writer or
 * other watchers.
 */
final class WatchHub {
  static final int MAX_QUEUED = 10_000;

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

  /** Stored points a watcher gets first, a message at a time; null when done. */
  interface Backlog extends AutoCloseable {
    WatchResponse next();

    @Override
    void close();
  }

  /**
   * Subscribes a watcher; {@code backlog} is called under the hub's lock, so the view it takes sees
   * exactly the appends published before this watcher and none after.
   */
  synchronized Watcher subscribe(
      List<SeriesPattern> patterns, java.util.function.Supplier<Backlog> backlog, Sink sink) {
    return subscribe(patterns, null, backlog, sink);
  }

  /**
   * Like {@link #subscribe(List, java.util.function.Supplier, Sink)}, for series of {@code shards}
   * only (null: every shard). A watcher with shards is sent one {@code caught_up} message once its
   * backlog is out, so that a forecaster knows when the shards it took are warm.
   */
  synchronized Watcher subscribe(
      List<SeriesPattern> patterns,
      ShardSet shards,
      java.util.function.Supplier<Backlog> backlog,
      Sink sink) {
    Watcher w = new Watcher(patterns, shards == null ? null : shards.copy(), sink);
    w.backlog = backlog == null ? null : backlog.get();
    w.announceCaughtUp = shards != null;
    w.limit = MAX_QUEUED;
    watchers.add(w);
    w.drainLater();
    return w;
  }

  /** Tells watchers of these series that they were deleted. */
  synchronized void publishDeleted(List<String> deleted) {
    for (Watcher w : watchers) {
      WatchResponse.Builder msg = null;
      for (String name : deleted) {
        if (w.wants(name, w.shards == null ? -1 : shardOf(name))) {
          if (msg == null) {
            msg = WatchResponse.newBuilder();
          }
          msg.addDeletedSeries(name);
        }
      }
      if (msg != null) {
        w.offer(msg.build());
      }
    }
  }

  /** Watchers subscribed and not yet cancelled or failed. */
  int watcherCount() {
    return watchers.size();
  }

  /** Called by the writer after points are durable. */
  synchronized void publish(List<Map.Entry<String, Points>> appended) {
    if (watchers.isEmpty()) {
      return;
    }
    // Each series' points become one immutable message part, shared by every watcher of it.
    java.util.List<SeriesPoints> parts = new ArrayList<>(appended.size());
    for (Map.Entry<String, Points> e : appended) {
      parts.add(batch(e.getKey(), e.getValue(), 0, e.getValue().size()).build());
    }
    // A series' shard is a hash of its source host: computed once per append, and only when some
    // watcher filters by shard.
    int[] shards = null;
    for (Watcher w : watchers) {
      if (w.shards != null) {
        shards = new int[parts.size()];
        for (int i = 0; i < shards.length; i++) {
          shards[i] = shardOf(parts.get(i).getSeries());
        }
        break;
      }
    }
    for (Watcher w : watchers) {
      WatchResponse.Builder msg = null;
      for (int i = 0; i < parts.size(); i++) {
        SeriesPoints part = parts.get(i);
        if (w.wants(part.getSeries(), shards == null ? -1 : shards[i])) {
          if (msg == null) {
            msg = WatchResponse.newBuilder();
          }
          msg.addBatches(part);
        }
      }
      if (msg != null) {
        w.offer(msg.build());
      }
    }
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

  static SeriesPoints.Builder batch(String series, Points p, int from, int to) {
    SeriesPoints.Builder sp = SeriesPoints.newBuilder().setSeries(series);
    for (int i = from; i < to; i++) {
      sp.addPoints(Measurement.newBuilder().setTimestampMs(p.times()[i]).setValue(p.values()[i]));
    }
    return sp;
  }

  /** One subscriber. */
  final class Watcher {
    private final List<SeriesPattern> patterns;
    private final ShardSet shards;
    private final Sink sink;
    private boolean announceCaughtUp;
    private final ArrayDeque<WatchResponse> queue = new ArrayDeque<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    private Backlog backlog;
    private int limit;
    private volatile boolean closed;

    private Watcher(List<SeriesPattern> patterns, ShardSet shards, Sink sink) {
      this.patterns = new ArrayList<>(patterns);
      this.shards = shards;
      this.sink = sink;
    }

    /** Whether the watcher wants {@code series}, whose shard is {@code shard} if it filters. */
    boolean wants(String series, int shard) {
      if (shards != null && !shards.contains(shard)) {
        return false;
      }
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
        sink.fail(
            "watcher fell more than "
                + MAX_QUEUED
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
            WatchResponse next = null;
            if (backlog != null) {
              next = backlog.next();
              if (next == null) {
                backlog.close();
                backlog = null;
              }
            }
            if (next == null && announceCaughtUp) {
              announceCaughtUp = false;
              next = WatchResponse.newBuilder().setCaughtUp(true).build();
            }
            if (next == null) {
              synchronized (queue) {
                next = queue.poll();
              }
            }
            if (next == null) {
              break;
            }
            sink.send(next);
          }
        } finally {
          if (closed && backlog != null) {
            backlog.close();
            backlog = null;
          }
          draining.set(false);
        }
        synchronized (queue) {
          if ((queue.isEmpty() && backlog == null) || !sink.isReady()) {
            return;
          }
        }
      }
    }

    /** Stops delivery and forgets the watcher. */
    void cancel() {
      closed = true;
      watchers.remove(this);
      // The backlog (a store view) is closed by the drain that owns it, or here if none runs.
      if (draining.compareAndSet(false, true)) {
        if (backlog != null) {
          backlog.close();
          backlog = null;
        }
        draining.set(false);
      }
    }
  }
}
