package org.netweather.forecaster;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecastPointsRequest;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.api.v1.GetForecastsResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.model.SeriesName;
import org.netweather.model.SeriesPattern;
import org.netweather.model.shard.ShardSet;
import org.netweather.model.shard.Shards;
import org.netweather.runtime.Statuses;
import org.netweather.runtime.StreamLimits;
import org.netweather.runtime.auth.Caller;

/** The {@code netweather.v1.Forecaster} gRPC service over {@link SeriesForecasts}. */
public final class ForecasterService extends ForecasterGrpc.ForecasterImplBase {
  static final int MAX_SERIES = 10_000;
  static final int MAX_POINTS = 100_000;

  private final SeriesForecasts forecasts;
  private final BatteryLayout layout;
  private final WatchIndex watchers = new WatchIndex();
  private final StreamLimits watchLimits;
  private final double defaultCoverage;
  private final ShardGate gate;
  // Watch streams of a sharded forecaster, ended when a shard they cover moves.
  private final java.util.Set<CoalescingStream> streams = ConcurrentHashMap.newKeySet();

  public ForecasterService(SeriesForecasts forecasts, BatteryLayout layout) {
    this(forecasts, layout, StreamLimits.watches("forecaster", 1024, 64), Battery.DEFAULT_COVERAGE);
  }

  /**
   * @param defaultCoverage the intervals' coverage for requests that leave it unset
   */
  public ForecasterService(
      SeriesForecasts forecasts,
      BatteryLayout layout,
      StreamLimits watchLimits,
      double defaultCoverage) {
    this(forecasts, layout, watchLimits, defaultCoverage, ShardGate.ALL);
  }

  /** Like the above, answering only for the shards {@code gate} serves. */
  ForecasterService(
      SeriesForecasts forecasts,
      BatteryLayout layout,
      StreamLimits watchLimits,
      double defaultCoverage,
      ShardGate gate) {
    this.forecasts = forecasts;
    this.layout = layout;
    this.watchLimits = watchLimits;
    this.defaultCoverage = Forecasts.coverage(defaultCoverage);
    this.gate = gate;
    forecasts.addListener(watchers);
  }

  /**
   * The shards served changed from {@code before} to {@code after}: every watch stream that covers
   * a shard that moved ends with SHARD_NOT_OWNED, so that its watcher asks the right forecaster.
   */
  void servingChanged(ShardSet before, ShardSet after) {
    for (CoalescingStream stream : streams) {
      int moved = stream.movedShard(before, after);
      if (moved >= 0) {
        stream.end(ShardRefusal.notOwned(moved, Optional.empty()));
      }
    }
  }

  private boolean serves(String series) {
    return !gate.sharded() || gate.serves(SeriesForecasts.shardOf(series));
  }

  /** Throws SHARD_NOT_OWNED, with who serves it, if {@code series} is not served here. */
  private void checkServed(String series) {
    if (!gate.sharded()) {
      return;
    }
    int shard = SeriesForecasts.shardOf(series);
    if (!gate.serves(shard)) {
      throw ShardRefusal.notOwned(shard, gate.hint(shard));
    }
  }

  @Override
  public void getForecast(GetForecastRequest req, StreamObserver<Forecast> out) {
    Statuses.respond(
        out,
        () -> {
          String problem = SeriesName.problem(req.getSeries());
          if (problem != null) {
            throw new IllegalArgumentException("series: " + problem);
          }
          double coverage = Forecasts.coverage(req.getCoverage(), defaultCoverage);
          checkServed(req.getSeries());
          if (req.getHorizonMs() != 0) {
            return horizon(req.getSeries(), coverage, req.getHorizonMs(), req.getCriterion())
                .orElseThrow(
                    () ->
                        Statuses.notFound(
                            "series '" + req.getSeries() + "' has no measurements here"));
          }
          return Forecasts.toProto(
              forecasts
                  .get(req.getSeries(), coverage)
                  .orElseThrow(
                      () ->
                          Statuses.notFound(
                              "series '" + req.getSeries() + "' has no measurements here")),
              req.getCriterion());
        });
  }

  @Override
  public void getForecasts(GetForecastsRequest req, StreamObserver<GetForecastsResponse> out) {
    Statuses.respond(
        out,
        () -> {
          GetForecastsResponse.Builder b = GetForecastsResponse.newBuilder();
          double coverage = Forecasts.coverage(req.getCoverage(), defaultCoverage);
          for (SeriesPattern p : patterns(req)) {
            if (p.isExact() && !serves(p.toString())) {
              b.addNotOwned(p.toString());
              continue;
            }
            List<SeriesForecasts.Snapshot> found = served(forecasts.matching(p, coverage));
            if (found.isEmpty()) {
              b.addNotFound(p.toString());
            }
            for (SeriesForecasts.Snapshot s : found) {
              if (req.getHorizonMs() == 0) {
                b.addForecasts(Forecasts.toProto(s, req.getCriterion()));
                continue;
              }
              try {
                horizon(s.series(), coverage, req.getHorizonMs(), req.getCriterion())
                    .ifPresentOrElse(b::addForecasts, () -> b.addNotFound(s.series()));
              } catch (IllegalStateException e) {
                b.addNotFound(s.series()); // too little history for this horizon yet
              }
            }
          }
          return b.build();
        });
  }

  /** The snapshots of series served here (all of them unless sharded). */
  private List<SeriesForecasts.Snapshot> served(List<SeriesForecasts.Snapshot> found) {
    if (!gate.sharded()) {
      return found;
    }
    List<SeriesForecasts.Snapshot> out = new ArrayList<>(found.size());
    for (SeriesForecasts.Snapshot s : found) {
      if (serves(s.series())) {
        out.add(s);
      }
    }
    return out;
  }

  /** The forecast of the mean over the next {@code horizonMs}, as GetForecast answers it. */
  private Optional<Forecast> horizon(
      String series, double coverage, long horizonMs, Criterion criterion) {
    if (horizonMs < 0) {
      throw new IllegalArgumentException("horizon_ms must not be negative: " + horizonMs);
    }
    try {
      return forecasts
          .horizon(series, coverage, horizonMs)
          .map(
              h ->
                  Forecasts.toProto(h.forecasts(), criterion).toBuilder()
                      .setHorizonMs(horizonMs)
                      .setHorizonSteps(h.steps())
                      .build());
    } catch (IllegalStateException e) {
      throw Statuses.failedPrecondition(e.getMessage());
    }
  }

  private static List<SeriesPattern> patterns(GetForecastsRequest req) {
    if (req.getSeriesCount() == 0) {
      throw new IllegalArgumentException("series is empty: name series or patterns");
    }
    if (req.getSeriesCount() > MAX_SERIES) {
      throw new IllegalArgumentException(
          "series has " + req.getSeriesCount() + " entries; at most " + MAX_SERIES);
    }
    List<SeriesPattern> out = new ArrayList<>();
    for (String s : req.getSeriesList()) {
      SeriesPattern p = SeriesPattern.parse(s);
      if (p.isExact()) {
        String problem = SeriesName.problem(s);
        if (problem != null) {
          throw new IllegalArgumentException("series: " + problem);
        }
      }
      out.add(p);
    }
    return out;
  }

  @Override
  public void watchForecasts(GetForecastsRequest req, StreamObserver<ForecastUpdate> out) {
    List<SeriesPattern> patterns;
    double coverage;
    try {
      patterns = patterns(req);
      coverage = Forecasts.coverage(req.getCoverage(), defaultCoverage);
      for (SeriesPattern p : patterns) {
        if (p.isExact()) {
          checkServed(p.toString());
        }
      }
    } catch (RuntimeException e) {
      out.onError(Statuses.toStatus(e));
      return;
    }
    // Each stream holds a queue of pending series: bounded per caller and in all.
    String caller = Caller.current().key();
    String refused = watchLimits.acquire(caller);
    if (refused != null) {
      out.onError(Status.RESOURCE_EXHAUSTED.withDescription(refused).asRuntimeException());
      return;
    }
    ServerCallStreamObserver<ForecastUpdate> call = (ServerCallStreamObserver<ForecastUpdate>) out;
    java.util.concurrent.atomic.AtomicBoolean released =
        new java.util.concurrent.atomic.AtomicBoolean();
    CoalescingStream[] self = new CoalescingStream[1];
    Runnable release =
        () -> {
          if (released.compareAndSet(false, true)) {
            watchers.cancel(self[0]);
            streams.remove(self[0]);
            watchLimits.release(caller);
          }
        };
    CoalescingStream stream =
        new CoalescingStream(
            call, forecasts, req.getCriterion(), coverage, gate, patterns, release);
    self[0] = stream;
    call.setOnCancelHandler(release);
    call.setOnReadyHandler(stream::drain);
    if (gate.sharded()) {
      streams.add(stream);
    }
    watchers.subscribe(patterns, stream);
    for (SeriesPattern p : patterns) {
      for (SeriesForecasts.Snapshot s : served(forecasts.matching(p, coverage))) {
        stream.offerInitial(Forecasts.toProto(s, req.getCriterion()));
      }
    }
    stream.drain();
  }

  @Override
  public void forecastPoints(ForecastPointsRequest req, StreamObserver<Forecast> out) {
    Statuses.respond(
        out,
        () -> {
          if (req.getPointsCount() == 0) {
            throw new IllegalArgumentException("points is empty");
          }
          if (req.getPointsCount() > MAX_POINTS) {
            throw new IllegalArgumentException(
                "points has " + req.getPointsCount() + " entries; at most " + MAX_POINTS);
          }
          // A known resource's values must lie in its physical range, as the memory-host demands.
          SeriesName name =
              req.getSeries().isEmpty() || SeriesName.problem(req.getSeries()) != null
                  ? null
                  : SeriesName.parse(req.getSeries());
          Battery battery = layout.newBattery();
          Measurement last = null;
          for (int i = 0; i < req.getPointsCount(); i++) {
            Measurement m = req.getPoints(i);
            String bad =
                name != null
                    ? name.checkValue(m.getValue())
                    : Double.isFinite(m.getValue()) ? null : "must be finite";
            if (bad != null) {
              throw new IllegalArgumentException(
                  "points[" + i + "].value " + m.getValue() + " " + bad);
            }
            battery.observe(m.getValue());
            last = m;
          }
          return Forecasts.toProto(
              req.getSeries(),
              battery.forecast(
                  Forecasts.criterion(req.getCriterion()),
                  Forecasts.coverage(req.getCoverage(), defaultCoverage)),
              last.getTimestampMs(),
              last.getValue());
        });
  }

  /**
   * Keeps at most one pending update per series for a watcher: a series is queued when its
   * forecasts change and its forecast is built when sent, from the battery's state then, so a
   * watcher that cannot keep up costs bounded memory, always gets the latest, and an update
   * overtaken before it is sent costs nothing. A deleted series leaves the queue. Updates of a
   * whole ingest batch are queued together and sent in one go, which lets the transport write them
   * out together.
   */
  private static final class CoalescingStream implements WatchIndex.Watcher {
    private final ServerCallStreamObserver<ForecastUpdate> call;
    private final SeriesForecasts forecasts;
    private final Criterion criterion;
    private final double coverage;
    private final ShardGate gate;
    private final List<SeriesPattern> patterns;
    private final Runnable release;
    private final ArrayDeque<Forecast> initial = new ArrayDeque<>();
    private final LinkedHashSet<SeriesForecasts.Series> pending = new LinkedHashSet<>();
    private boolean ended;

    CoalescingStream(
        ServerCallStreamObserver<ForecastUpdate> call,
        SeriesForecasts forecasts,
        Criterion criterion,
        double coverage,
        ShardGate gate,
        List<SeriesPattern> patterns,
        Runnable release) {
      this.call = call;
      this.forecasts = forecasts;
      this.criterion = criterion;
      this.coverage = coverage;
      this.gate = gate;
      this.patterns = patterns;
      this.release = release;
    }

    /**
     * A shard this stream covers whose serving changed between {@code before} and {@code after}, or
     * -1: exact names cover their own shards, a pattern covers every shard.
     */
    int movedShard(ShardSet before, ShardSet after) {
      boolean allShards = false;
      for (SeriesPattern p : patterns) {
        if (!p.isExact()) {
          allShards = true;
          continue;
        }
        int shard = SeriesForecasts.shardOf(p.toString());
        if (before.contains(shard) != after.contains(shard)) {
          return shard;
        }
      }
      if (allShards) {
        for (int s = 0; s < Shards.COUNT; s++) {
          if (before.contains(s) != after.contains(s)) {
            return s;
          }
        }
      }
      return -1;
    }

    /** Ends the stream with {@code status}, once. */
    void end(io.grpc.StatusRuntimeException status) {
      synchronized (this) {
        if (ended) {
          return;
        }
        ended = true;
        pending.clear();
        initial.clear();
        if (!call.isCancelled()) {
          call.onError(status);
        }
      }
      release.run();
    }

    synchronized void offerInitial(Forecast f) {
      initial.add(f);
    }

    @Override
    public synchronized void add(SeriesForecasts.Series series) {
      pending.add(series);
    }

    @Override
    public void flush() {
      drain();
    }

    @Override
    public synchronized void forget(SeriesForecasts.Series series) {
      pending.remove(series);
    }

    synchronized void drain() {
      while (!ended && call.isReady() && !call.isCancelled()) {
        Forecast f = initial.poll();
        if (f == null) {
          Iterator<SeriesForecasts.Series> it = pending.iterator();
          if (!it.hasNext()) {
            return;
          }
          SeriesForecasts.Series s = it.next();
          it.remove();
          if (gate.sharded() && !gate.serves(SeriesForecasts.shardOf(s.name()))) {
            continue; // followed but not served here: warming, or handed off
          }
          SeriesForecasts.Snapshot snap = forecasts.snapshot(s, coverage);
          if (snap == null) {
            continue; // deleted since it was queued
          }
          f = Forecasts.toProto(snap, criterion);
        }
        call.onNext(ForecastUpdate.newBuilder().setForecast(f).build());
      }
    }
  }
}
