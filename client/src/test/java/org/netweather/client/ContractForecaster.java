package org.netweather.client;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.api.v1.GetForecastsResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.model.SeriesPattern;
import org.netweather.model.shard.ShardSet;
import org.netweather.model.shard.Shards;

/**
 * A forecaster that follows the shard contract (docs/routing.md; the proxy's tests use it too) over
 * a fixed set of known series: it serves the series of the shards it is given, answers
 * SHARD_NOT_OWNED with a hint for the others, lists unserved exact names in {@code not_owned},
 * matches patterns only among the series it serves, and ends its watch streams with SHARD_NOT_OWNED
 * when told a shard moved. Its forecast of every series is its own number, so a test sees who
 * answered.
 */
public final class ContractForecaster extends ForecasterGrpc.ForecasterImplBase {
  public final String name;
  public final int number;
  public volatile String address = "";
  public volatile ShardSet serves = ShardSet.none();

  /** Calls received: rpc name then the series asked, for tests to see where calls went. */
  public final List<String> calls = new CopyOnWriteArrayList<>();

  private final List<String> known;
  private final IntFunction<Optional<ContractForecaster>> servingOwner;
  private final Map<ServerCallStreamObserver<ForecastUpdate>, List<SeriesPattern>> watchers =
      new ConcurrentHashMap<>();
  volatile boolean hints = true;

  /**
   * @param known every series of the site
   * @param servingOwner the forecaster that really serves a shard, for hints
   */
  public ContractForecaster(
      String name,
      int number,
      List<String> known,
      IntFunction<Optional<ContractForecaster>> servingOwner) {
    this.name = name;
    this.number = number;
    this.known = List.copyOf(known);
    this.servingOwner = servingOwner;
  }

  public Forecast forecast(String series) {
    return Forecast.newBuilder()
        .setSeries(series)
        .setValue(number)
        .setCount(1)
        .setLast(
            Measurement.newBuilder().setTimestampMs(System.currentTimeMillis()).setValue(number))
        .build();
  }

  private boolean served(String series) {
    return serves.contains(Shards.of(series));
  }

  private io.grpc.StatusRuntimeException notOwned(int shard) {
    ContractForecaster owner = hints ? servingOwner.apply(shard).orElse(null) : null;
    return new ShardNotOwned(
            shard, owner == null ? "" : owner.name, owner == null ? "" : owner.address)
        .toException(name + " does not serve shard " + shard);
  }

  @Override
  public void getForecast(GetForecastRequest req, StreamObserver<Forecast> out) {
    calls.add("getForecast " + req.getSeries());
    int shard = Shards.of(req.getSeries());
    if (!serves.contains(shard)) {
      out.onError(notOwned(shard));
    } else if (!known.contains(req.getSeries())) {
      out.onError(Status.NOT_FOUND.withDescription(req.getSeries()).asRuntimeException());
    } else {
      out.onNext(forecast(req.getSeries()));
      out.onCompleted();
    }
  }

  @Override
  public void getForecasts(GetForecastsRequest req, StreamObserver<GetForecastsResponse> out) {
    calls.add("getForecasts " + String.join(",", req.getSeriesList()));
    GetForecastsResponse.Builder b = GetForecastsResponse.newBuilder();
    for (String item : req.getSeriesList()) {
      SeriesPattern p = SeriesPattern.parse(item);
      if (p.isExact() && !served(item)) {
        b.addNotOwned(item);
        continue;
      }
      List<String> hits = known.stream().filter(s -> p.matches(s) && served(s)).toList();
      if (hits.isEmpty()) {
        b.addNotFound(item);
      }
      hits.forEach(s -> b.addForecasts(forecast(s)));
    }
    out.onNext(b.build());
    out.onCompleted();
  }

  @Override
  public void watchForecasts(GetForecastsRequest req, StreamObserver<ForecastUpdate> out) {
    calls.add("watchForecasts " + String.join(",", req.getSeriesList()));
    ServerCallStreamObserver<ForecastUpdate> stream =
        (ServerCallStreamObserver<ForecastUpdate>) out;
    List<SeriesPattern> patterns;
    try {
      patterns = req.getSeriesList().stream().map(SeriesPattern::parse).toList();
    } catch (IllegalArgumentException e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
      return;
    }
    stream.setOnCancelHandler(() -> watchers.remove(stream));
    synchronized (stream) {
      watchers.put(stream, patterns);
      for (String s : known) {
        if (served(s) && patterns.stream().anyMatch(p -> p.matches(s))) {
          stream.onNext(ForecastUpdate.newBuilder().setForecast(forecast(s)).build());
        }
      }
    }
  }

  /** Open watch streams. */
  public int watchers() {
    return watchers.size();
  }

  /** Ends every watch stream as a forecaster does when {@code shard} moves to or from it. */
  public void shardMoved(int shard) {
    for (ServerCallStreamObserver<ForecastUpdate> s : watchers.keySet()) {
      watchers.remove(s);
      synchronized (s) {
        s.onError(notOwned(shard));
      }
    }
  }
}
