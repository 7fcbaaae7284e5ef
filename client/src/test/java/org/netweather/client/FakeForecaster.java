package org.netweather.client;

import static org.netweather.client.FakeNameserver.reply;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CountDownLatch;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecastPointsRequest;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.api.v1.GetForecastsResponse;
import org.netweather.api.v1.Measurement;

/**
 * A forecaster whose forecast of a series is its name's length, so a test can tell which series an
 * answer is for; patterns with {@code *} match nothing.
 */
final class FakeForecaster extends ForecasterGrpc.ForecasterImplBase {
  final Failures failures = new Failures();
  final CountDownLatch watchCancelled = new CountDownLatch(1);

  static Forecast of(String series, org.netweather.api.v1.Criterion c) {
    return Forecast.newBuilder()
        .setSeries(series)
        .setValue(series.length())
        .setCriterion(c)
        .build();
  }

  @Override
  public void getForecast(GetForecastRequest req, StreamObserver<Forecast> out) {
    if (failures.failed("getForecast", out)) {
      return;
    }
    reply(out, of(req.getSeries(), req.getCriterion()));
  }

  @Override
  public void getForecasts(GetForecastsRequest req, StreamObserver<GetForecastsResponse> out) {
    if (failures.failed("getForecasts", out)) {
      return;
    }
    GetForecastsResponse.Builder b = GetForecastsResponse.newBuilder();
    for (String s : req.getSeriesList()) {
      if (s.contains("*")) {
        b.addNotFound(s);
      } else {
        b.addForecasts(of(s, req.getCriterion()));
      }
    }
    reply(out, b.build());
  }

  @Override
  public void forecastPoints(ForecastPointsRequest req, StreamObserver<Forecast> out) {
    if (failures.failed("forecastPoints", out)) {
      return;
    }
    double mean =
        req.getPointsList().stream()
            .mapToDouble(Measurement::getValue)
            .average()
            .orElse(Double.NaN);
    reply(
        out,
        Forecast.newBuilder()
            .setSeries(req.getSeries())
            .setValue(mean)
            .setCount(req.getPointsCount())
            .setCriterion(req.getCriterion())
            .build());
  }

  @Override
  public void watchForecasts(GetForecastsRequest req, StreamObserver<ForecastUpdate> out) {
    ((ServerCallStreamObserver<ForecastUpdate>) out).setOnCancelHandler(watchCancelled::countDown);
    for (String s : req.getSeriesList()) {
      out.onNext(ForecastUpdate.newBuilder().setForecast(of(s, req.getCriterion())).build());
    }
  }
}
