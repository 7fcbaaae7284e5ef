package org.netweather.memoryhost;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.AppendStreamRequest;
import org.netweather.api.v1.AppendStreamResponse;
import org.netweather.api.v1.DeleteSeriesRequest;
import org.netweather.api.v1.DeleteSeriesResponse;
import org.netweather.api.v1.FetchConsolidatedRequest;
import org.netweather.api.v1.FetchConsolidatedResponse;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.FetchResponse;
import org.netweather.api.v1.ListSeriesRequest;
import org.netweather.api.v1.ListSeriesResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.Resolution;
import org.netweather.api.v1.RetentionRequest;
import org.netweather.api.v1.RetentionResponse;
import org.netweather.api.v1.SeriesSummary;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;
import org.netweather.memoryhost.store.Points;
import org.netweather.memoryhost.store.SeriesState;
import org.netweather.memoryhost.store.StoreFullException;
import org.netweather.model.Resource;
import org.netweather.model.SeriesName;
import org.netweather.model.SeriesPattern;
import org.netweather.model.shard.ShardSet;
import org.netweather.runtime.Statuses;
import org.netweather.runtime.StreamLimits;
import org.netweather.runtime.auth.Caller;

/** The {@code netweather.v1.MemoryHost} gRPC service over a {@link MeasurementStore}. */
public final class MemoryHostService extends MemoryHostGrpc.MemoryHostImplBase {
  static final int MAX_FETCH = 100_000;
  static final int MAX_LISTED = 10_000;
  static final int DEFAULT_PAGE = 1_000;
  static final int MAX_PAGE = 10_000;
  static final long MIN_RETAINED_POINTS = 1_000;
  // A sensor holds one append stream per memory-host it delivers to.
  static final int MAX_APPEND_STREAMS = 100_000;
  static final int MAX_APPEND_STREAMS_PER_CALLER = 256;

  private final MeasurementStore store;
  private final Clock clock;
  private final StreamLimits watchLimits;
  private final StreamLimits appendStreamLimits;

  /** A service with the default stream limits. */
  public MemoryHostService(MeasurementStore store, Clock clock) {
    this(
        store,
        clock,
        StreamLimits.watches("memory-host", 1024, 64),
        appendStreamLimits(MAX_APPEND_STREAMS, MAX_APPEND_STREAMS_PER_CALLER));
  }

  public MemoryHostService(
      MeasurementStore store,
      Clock clock,
      StreamLimits watchLimits,
      StreamLimits appendStreamLimits) {
    this.store = store;
    this.clock = clock;
    this.watchLimits = watchLimits;
    this.appendStreamLimits = appendStreamLimits;
  }

  /** Append streams, limited by {@code maxAppendStreams} and {@code maxAppendStreamsPerCaller}. */
  public static StreamLimits appendStreamLimits(int maxTotal, int maxPerCaller) {
    return new StreamLimits(
        "memory-host",
        "append streams",
        "maxAppendStreams",
        "maxAppendStreamsPerCaller",
        maxTotal,
        maxPerCaller);
  }

  /** Append streams open now. */
  int appendStreams() {
    return appendStreamLimits.open();
  }

  @Override
  public void append(AppendRequest req, StreamObserver<AppendResponse> out) {
    submit(req.getBatchesList(), Caller.current().key())
        .whenComplete(
            (r, err) -> {
              if (err == null) {
                out.onNext(
                    AppendResponse.newBuilder()
                        .setStored(r.stored())
                        .setDuplicates(r.duplicates())
                        .setServerTimeMs(clock.millis())
                        .build());
                out.onCompleted();
              } else {
                out.onError(statusOf(err));
              }
            });
  }

  /**
   * Validates a batch and queues it, for Append and each request of an AppendStream alike. The
   * future fails with {@link IllegalArgumentException} if the batch is bad (nothing is queued), or
   * as {@link MeasurementStore#append} fails.
   */
  CompletableFuture<MeasurementStore.Result> submit(
      List<org.netweather.api.v1.SeriesPoints> batches, String caller) {
    SeriesState[] known = store.resolve(batches);
    try {
      MeasurementStore.validate(batches, known, clock.millis());
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(e);
    }
    return store.append(batches, known, caller);
  }

  @Override
  public StreamObserver<AppendStreamRequest> appendStream(
      StreamObserver<AppendStreamResponse> out) {
    // A stream holds up to a window of requests and the transport's state for as long as the
    // caller keeps it open, whether or not it sends: bounded per caller and in all.
    String caller = Caller.current().key();
    String refused = appendStreamLimits.acquire(caller);
    if (refused != null) {
      out.onError(Status.RESOURCE_EXHAUSTED.withDescription(refused).asRuntimeException());
      return new StreamObserver<>() {
        @Override
        public void onNext(AppendStreamRequest req) {}

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {}
      };
    }
    AtomicBoolean released = new AtomicBoolean();
    Runnable release =
        () -> {
          if (released.compareAndSet(false, true)) {
            appendStreamLimits.release(caller);
          }
        };
    ServerCallStreamObserver<AppendStreamResponse> call =
        (ServerCallStreamObserver<AppendStreamResponse>) out;
    // A call ends either closed by the server (answered, or refused by authorization) or
    // cancelled (the caller went away); each gives the slot back.
    call.setOnCloseHandler(release);
    return new AppendStream(batches -> submit(batches, caller), call, release, clock::millis);
  }

  /**
   * The status an append that failed ends with: a bad batch is INVALID_ARGUMENT; limits and a full
   * queue or disk are back-pressure.
   */
  static StatusRuntimeException statusOf(Throwable err) {
    if (err instanceof RejectedExecutionException
        || err instanceof LimitExceededException
        || err instanceof StoreFullException) {
      return Status.RESOURCE_EXHAUSTED.withDescription(err.getMessage()).asRuntimeException();
    }
    return Statuses.toStatus(err);
  }

  @Override
  public void fetch(FetchRequest req, StreamObserver<FetchResponse> out) {
    Statuses.respond(
        out,
        () -> {
          checkSeries(req.getSeries());
          Points p;
          switch (req.getSelectionCase()) {
            case LAST:
              if (req.getLast() < 1 || req.getLast() > MAX_FETCH) {
                throw new IllegalArgumentException(
                    "last " + req.getLast() + " is outside [1, " + MAX_FETCH + "]");
              }
              p =
                  store
                      .last(req.getSeries(), req.getLast())
                      .orElseThrow(() -> unknown(req.getSeries()));
              break;
            case RANGE:
              long from = req.getRange().getFromMs();
              long to = req.getRange().getToMs() == 0 ? clock.millis() : req.getRange().getToMs();
              if (from > to) {
                throw new IllegalArgumentException(
                    "range.from_ms " + from + " is after range.to_ms " + to);
              }
              p =
                  store
                      .range(req.getSeries(), from, to, MAX_FETCH)
                      .orElseThrow(() -> unknown(req.getSeries()));
              break;
            default:
              throw new IllegalArgumentException("selection is missing: give range or last");
          }
          FetchResponse.Builder b = FetchResponse.newBuilder().setSeries(req.getSeries());
          for (int i = 0; i < p.size(); i++) {
            b.addPoints(
                Measurement.newBuilder().setTimestampMs(p.times()[i]).setValue(p.values()[i]));
          }
          return b.build();
        });
  }

  @Override
  public void fetchConsolidated(
      FetchConsolidatedRequest req, StreamObserver<FetchConsolidatedResponse> out) {
    Statuses.respond(
        out,
        () -> {
          checkSeries(req.getSeries());
          if (req.getResolution() == Resolution.RESOLUTION_UNKNOWN
              || req.getResolution() == Resolution.UNRECOGNIZED) {
            throw new IllegalArgumentException("resolution must be MINUTE, HOUR or DAY");
          }
          long to = req.getRange().getToMs() == 0 ? clock.millis() : req.getRange().getToMs();
          long from = req.getRange().getFromMs();
          if (from > to) {
            throw new IllegalArgumentException(
                "range.from_ms " + from + " is after range.to_ms " + to);
          }
          return FetchConsolidatedResponse.newBuilder()
              .setSeries(req.getSeries())
              .setResolution(req.getResolution())
              .setStepSeconds(ArchiveConsolidator.stepSeconds(req.getResolution()))
              .addAllPoints(
                  store
                      .consolidated(req.getSeries(), req.getResolution(), from, to)
                      .orElseThrow(() -> unknown(req.getSeries())))
              .build();
        });
  }

  @Override
  public void listSeries(ListSeriesRequest req, StreamObserver<ListSeriesResponse> out) {
    Statuses.respond(
        out,
        () -> {
          SeriesPattern p =
              req.getPattern().isEmpty() ? null : SeriesPattern.parse(req.getPattern());
          if (req.getPageSize() < 0) {
            throw new IllegalArgumentException("page_size " + req.getPageSize() + " is negative");
          }
          int size = req.getPageSize() == 0 ? DEFAULT_PAGE : Math.min(MAX_PAGE, req.getPageSize());
          ListSeriesResponse.Builder b = ListSeriesResponse.newBuilder();
          List<SeriesState> page = store.page(p, req.getPageToken(), size + 1);
          for (int i = 0; i < Math.min(size, page.size()); i++) {
            SeriesState rs = page.get(i);
            String name = rs.name();
            int colon = name.indexOf(':');
            SeriesSummary.Builder s =
                SeriesSummary.newBuilder()
                    .setSeries(name)
                    .setResource(name.substring(0, colon))
                    .setUnit(Resource.unitOf(name.substring(0, colon)))
                    .setCount(rs.count())
                    .setFirstTimestampMs(rs.firstTime())
                    .setLastTimestampMs(rs.lastTime());
            if (rs.count() > 0) {
              s.setLastValue(rs.lastValue());
            }
            b.addSeries(s);
          }
          if (page.size() > size) {
            b.setNextPageToken(page.get(size - 1).name());
          }
          return b.build();
        });
  }

  @Override
  public void watch(WatchRequest req, StreamObserver<WatchResponse> out) {
    List<SeriesPattern> patterns = new ArrayList<>();
    ShardSet shards = null;
    try {
      if (req.getPatternsCount() == 0) {
        throw new IllegalArgumentException("patterns is empty (use \"*\" for every series)");
      }
      for (String p : req.getPatternsList()) {
        patterns.add(SeriesPattern.parse(p));
      }
      if (!req.getShards().isEmpty()) {
        try {
          shards = ShardSet.parse(req.getShards());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("shards: " + e.getMessage(), e);
        }
      }
    } catch (IllegalArgumentException e) {
      out.onError(Statuses.toStatus(e));
      return;
    }
    // Each stream holds a queue and possibly a store view: bounded per caller and in all.
    String caller = Caller.current().key();
    String refused = watchLimits.acquire(caller);
    if (refused != null) {
      out.onError(Status.RESOURCE_EXHAUSTED.withDescription(refused).asRuntimeException());
      return;
    }
    AtomicBoolean released = new AtomicBoolean();
    Runnable release =
        () -> {
          if (released.compareAndSet(false, true)) {
            watchLimits.release(caller);
          }
        };
    ServerCallStreamObserver<WatchResponse> call = (ServerCallStreamObserver<WatchResponse>) out;
    WatchHub.Watcher[] self = new WatchHub.Watcher[1];
    WatchHub.Sink sink =
        new WatchHub.Sink() {
          @Override
          public boolean isReady() {
            return call.isReady() && !call.isCancelled();
          }

          @Override
          public void send(WatchResponse message) {
            synchronized (call) {
              call.onNext(message);
            }
          }

          @Override
          public void fail(String reason) {
            release.run();
            synchronized (call) {
              call.onError(Status.RESOURCE_EXHAUSTED.withDescription(reason).asRuntimeException());
            }
          }
        };
    call.setOnCancelHandler(
        () -> {
          release.run();
          if (self[0] != null) {
            self[0].cancel();
          }
        });
    call.setOnReadyHandler(
        () -> {
          if (self[0] != null) {
            self[0].drainLater();
          }
        });
    self[0] =
        store.watch(
            patterns,
            shards,
            req.getSinceMs(),
            req.getLiveOnly(),
            Math.max(0, req.getBacklogPerSeries()),
            sink);
  }

  @Override
  public void deleteSeries(DeleteSeriesRequest req, StreamObserver<DeleteSeriesResponse> out) {
    Statuses.respond(
        out,
        () -> {
          if (req.getPattern().isEmpty()) {
            throw new IllegalArgumentException("pattern is empty (\"*\" deletes every series)");
          }
          // Only an explicit force deletes: the zero value of every field must be the safe one.
          boolean dryRun = !req.getForce() || req.getDryRun();
          List<String> names = store.delete(SeriesPattern.parse(req.getPattern()), dryRun);
          DeleteSeriesResponse.Builder b =
              DeleteSeriesResponse.newBuilder().setDryRun(dryRun).setCount(names.size());
          b.addAllSeries(names.subList(0, Math.min(names.size(), MAX_LISTED)));
          return b.build();
        });
  }

  @Override
  public void retention(RetentionRequest req, StreamObserver<RetentionResponse> out) {
    Statuses.respond(
        out,
        () -> {
          Long points = null;
          Long ageMs = null;
          if (req.hasMaxPoints()) {
            if (req.getMaxPoints() < MIN_RETAINED_POINTS) {
              throw new IllegalArgumentException(
                  "max_points " + req.getMaxPoints() + " is below " + MIN_RETAINED_POINTS);
            }
            points = req.getMaxPoints();
          }
          if (req.hasMaxAgeSeconds()) {
            long s = req.getMaxAgeSeconds();
            if (s != 0 && (s < 3600 || s > 100L * 365 * 86_400)) {
              throw new IllegalArgumentException(
                  "max_age_seconds "
                      + s
                      + " is outside [3600, 100 years] (0 keeps points whatever their age)");
            }
            ageMs = s * 1000;
          }
          MeasurementStore.Retention r = store.retention(points, ageMs);
          return RetentionResponse.newBuilder()
              .setMaxPoints(r.maxPoints())
              .setMaxAgeSeconds(r.maxAgeMs() / 1000)
              .build();
        });
  }

  private static void checkSeries(String series) {
    String problem = SeriesName.problem(series);
    if (problem != null) {
      throw new IllegalArgumentException("series: " + problem);
    }
  }

  private static RuntimeException unknown(String series) {
    return Statuses.notFound("series '" + series + "' is not stored on this memory-host");
  }
}
