package org.netweather.client;

import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.Channel;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.api.v1.GetForecastsResponse;
import org.netweather.model.SeriesPattern;

/**
 * GetForecast and GetForecasts sent to the forecasters that serve the series ({@link ShardRouter}),
 * with the one retry a SHARD_NOT_OWNED answer calls for. On a site with one forecaster (none
 * registered with {@code sharding=rendezvous}) every call goes to it, as it always did.
 *
 * <p>GetForecasts is split: exact names (and patterns with a literal source host) go to the owner
 * of their shard, patterns over several hosts to every forecaster, one call per forecaster, all at
 * once; the answers are merged: a pattern is not found only when no forecaster found it, and the
 * names a forecaster did not own are asked once more where {@link ShardRouter.View#retryTarget}
 * says. Names still unowned after that are listed in {@code not_owned}.
 */
final class RoutedForecasts {
  private final ShardRouter router;
  private final Function<String, Channel> channels;

  RoutedForecasts(ShardRouter router, Function<String, Channel> channels) {
    this.router = router;
    this.channels = channels;
  }

  ShardRouter router() {
    return router;
  }

  /** One try of GetForecast under {@code deadline}: at the owner, then once more if it says so. */
  Forecast forecast(GetForecastRequest req, Deadline deadline) {
    ShardRouter.View view = router.current();
    String asked = view.route(req.getSeries());
    try {
      return call(asked, req, deadline);
    } catch (StatusRuntimeException e) {
      ShardNotOwned hint = ShardNotOwned.of(e).orElse(null);
      if (hint == null) {
        throw unreachable(e);
      }
      int shard = ShardRouter.shardOf(req.getSeries());
      ShardRouter.View fresh = router.refresh();
      String next = fresh.retryTarget(shard, hint, asked);
      if (next == null) {
        throw e;
      }
      try {
        return call(next, req, deadline);
      } catch (StatusRuntimeException again) {
        if (ShardNotOwned.of(again).isEmpty()) {
          throw unreachable(again);
        }
        // The hint was wrong too: last, the owner by our own (fresh) list.
        String own = fresh.ownerOf(shard);
        if (own.equals(next) || own.equals(asked)) {
          throw again;
        }
        return call(own, req, deadline);
      }
    }
  }

  private Forecast call(String address, GetForecastRequest req, Deadline deadline) {
    return ForecasterGrpc.newBlockingStub(channels.apply(address))
        .withDeadline(deadline)
        .getForecast(req);
  }

  /** A forecaster that cannot be reached may be gone: the next call lists them again. */
  private StatusRuntimeException unreachable(StatusRuntimeException e) {
    if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
      router.invalidate();
    }
    return e;
  }

  /** One try of GetForecasts under {@code deadline}, split over the forecasters and merged. */
  GetForecastsResponse forecasts(GetForecastsRequest req, Deadline deadline) {
    ShardRouter.View view = router.current();
    if (!view.sharded()) {
      return one(view.any(), req, deadline);
    }
    // Every pattern goes to every forecaster, even one naming a single source host: during a
    // handoff the computed owner has not warmed the shard yet and would find nothing, while the
    // previous owner still serves it. (A watch, which is re-routed when a shard arrives, may
    // send such a pattern to the owner alone.)
    List<String> everywhere = new ArrayList<>();
    Map<String, List<String>> byOwner = new LinkedHashMap<>();
    for (String item : req.getSeriesList()) {
      if (item.indexOf('*') >= 0) {
        everywhere.add(item);
      } else {
        byOwner.computeIfAbsent(view.route(item), k -> new ArrayList<>()).add(item);
      }
    }
    Map<String, List<String>> legs = new LinkedHashMap<>();
    for (String address : everywhere.isEmpty() ? List.<String>of() : view.addresses()) {
      legs.put(address, new ArrayList<>(everywhere));
    }
    byOwner.forEach(
        (address, items) -> legs.computeIfAbsent(address, k -> new ArrayList<>()).addAll(items));
    Map<String, GetForecastsResponse> answers = all(legs, req, deadline);

    Merge merge = new Merge();
    Map<String, Integer> patternMisses = new HashMap<>();
    Map<String, String> notOwnedAt = new LinkedHashMap<>(); // name -> address that disowned it
    answers.forEach(
        (address, r) -> {
          merge.add(r.getForecastsList());
          for (String s : r.getNotFoundList()) {
            if (everywhere.contains(s)) {
              patternMisses.merge(s, 1, Integer::sum);
            } else {
              merge.notFound.add(s);
            }
          }
          for (String s : r.getNotOwnedList()) {
            notOwnedAt.put(s, address);
          }
        });
    int everyLeg = answers.size();
    patternMisses.forEach(
        (pattern, misses) -> {
          if (misses == everyLeg) {
            merge.notFound.add(pattern);
          }
        });
    if (!notOwnedAt.isEmpty()) {
      retryNotOwned(notOwnedAt, req, deadline, merge);
    }
    return merge.build(req.getSeriesList());
  }

  /** Asks once more for names a forecaster did not own, each where the fresh list says. */
  private void retryNotOwned(
      Map<String, String> notOwnedAt, GetForecastsRequest req, Deadline deadline, Merge merge) {
    ShardRouter.View fresh = router.refresh();
    Map<String, List<String>> legs = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : notOwnedAt.entrySet()) {
      String next = fresh.retryTarget(ShardRouter.shardOf(e.getKey()), null, e.getValue());
      if (next == null) {
        merge.notOwned.add(e.getKey());
      } else {
        legs.computeIfAbsent(next, k -> new ArrayList<>()).add(e.getKey());
      }
    }
    for (GetForecastsResponse r : all(legs, req, deadline).values()) {
      merge.add(r.getForecastsList());
      merge.notFound.addAll(r.getNotFoundList());
      merge.notOwned.addAll(r.getNotOwnedList());
    }
  }

  private GetForecastsResponse one(String address, GetForecastsRequest req, Deadline deadline) {
    try {
      return ForecasterGrpc.newBlockingStub(channels.apply(address))
          .withDeadline(deadline)
          .getForecasts(req);
    } catch (StatusRuntimeException e) {
      throw unreachable(e);
    }
  }

  /**
   * Sends each leg's items at once and waits for every answer; the first failure (in leg order)
   * fails the whole call, naming the forecaster, so that a caller never takes a partial answer for
   * a whole one.
   */
  private Map<String, GetForecastsResponse> all(
      Map<String, List<String>> legs, GetForecastsRequest req, Deadline deadline) {
    Map<String, ListenableFuture<GetForecastsResponse>> pending = new LinkedHashMap<>();
    legs.forEach(
        (address, items) ->
            pending.put(
                address,
                ForecasterGrpc.newFutureStub(channels.apply(address))
                    .withDeadline(deadline)
                    .getForecasts(req.toBuilder().clearSeries().addAllSeries(items).build())));
    Map<String, GetForecastsResponse> out = new LinkedHashMap<>();
    StatusRuntimeException failed = null;
    for (Map.Entry<String, ListenableFuture<GetForecastsResponse>> e : pending.entrySet()) {
      try {
        out.put(e.getKey(), e.getValue().get());
      } catch (ExecutionException ex) {
        Status s = Status.fromThrowable(ex.getCause());
        if (failed == null) {
          failed =
              s.withDescription("forecaster " + e.getKey() + ": " + s.getDescription())
                  .withCause(ex.getCause())
                  .asRuntimeException();
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        pending.values().forEach(f -> f.cancel(true));
        throw Status.CANCELLED.withDescription("interrupted").withCause(ex).asRuntimeException();
      }
    }
    if (failed != null) {
      throw unreachable(failed);
    }
    return out;
  }

  /** The merged answer: each series once (the newer forecast when two forecasters sent one). */
  private static final class Merge {
    final Map<String, Forecast> forecasts = new HashMap<>();
    final Set<String> notFound = new LinkedHashSet<>();
    final Set<String> notOwned = new LinkedHashSet<>();

    void add(List<Forecast> fs) {
      for (Forecast f : fs) {
        // During a handoff the old and the new owner may both answer: keep the fresher.
        forecasts.merge(
            f.getSeries(),
            f,
            (a, b) -> b.getLast().getTimestampMs() > a.getLast().getTimestampMs() ? b : a);
      }
    }

    /** Forecasts in the order of the request's items; a pattern's matches by name. */
    GetForecastsResponse build(List<String> items) {
      GetForecastsResponse.Builder b = GetForecastsResponse.newBuilder();
      Set<String> placed = new LinkedHashSet<>();
      List<Forecast> byName = new ArrayList<>(forecasts.values());
      byName.sort(Comparator.comparing(Forecast::getSeries));
      for (String item : items) {
        if (item.indexOf('*') < 0) {
          Forecast f = forecasts.get(item);
          if (f != null && placed.add(item)) {
            b.addForecasts(f);
          }
          continue;
        }
        SeriesPattern p = SeriesPattern.parse(item);
        for (Forecast f : byName) {
          if (p.matches(f.getSeries()) && placed.add(f.getSeries())) {
            b.addForecasts(f);
          }
        }
      }
      for (Forecast f : byName) { // anything no item claims (none expected): not dropped
        if (placed.add(f.getSeries())) {
          b.addForecasts(f);
        }
      }
      notOwned.removeAll(forecasts.keySet());
      return b.addAllNotFound(notFound).addAllNotOwned(notOwned).build();
    }
  }
}
