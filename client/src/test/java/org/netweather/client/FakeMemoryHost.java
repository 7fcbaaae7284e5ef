package org.netweather.client;

import static org.netweather.client.FakeNameserver.reply;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.ConsolidatedPoint;
import org.netweather.api.v1.FetchConsolidatedRequest;
import org.netweather.api.v1.FetchConsolidatedResponse;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.FetchResponse;
import org.netweather.api.v1.ListSeriesRequest;
import org.netweather.api.v1.ListSeriesResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.SeriesSummary;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;

/** A memory-host in memory: points by series and timestamp; a watch sends what is stored. */
final class FakeMemoryHost extends MemoryHostGrpc.MemoryHostImplBase {
  final Failures failures = new Failures();
  final Map<String, TreeMap<Long, Double>> series = new ConcurrentHashMap<>();
  final CountDownLatch watchCancelled = new CountDownLatch(1);

  @Override
  public void append(AppendRequest req, StreamObserver<AppendResponse> out) {
    if (failures.failed("append", out)) {
      return;
    }
    long stored = 0;
    long duplicates = 0;
    for (SeriesPoints b : req.getBatchesList()) {
      TreeMap<Long, Double> points = series.computeIfAbsent(b.getSeries(), k -> new TreeMap<>());
      for (Measurement m : b.getPointsList()) {
        if (points.putIfAbsent(m.getTimestampMs(), m.getValue()) == null) {
          stored++;
        } else {
          duplicates++;
        }
      }
    }
    reply(out, AppendResponse.newBuilder().setStored(stored).setDuplicates(duplicates).build());
  }

  @Override
  public void fetch(FetchRequest req, StreamObserver<FetchResponse> out) {
    if (failures.failed("fetch", out)) {
      return;
    }
    TreeMap<Long, Double> points = series.get(req.getSeries());
    if (points == null) {
      out.onError(Status.NOT_FOUND.withDescription(req.getSeries()).asRuntimeException());
      return;
    }
    List<Map.Entry<Long, Double>> all = new ArrayList<>(points.entrySet());
    List<Map.Entry<Long, Double>> chosen =
        req.hasRange()
            ? new ArrayList<>(
                points
                    .subMap(
                        req.getRange().getFromMs(),
                        true,
                        req.getRange().getToMs() == 0 ? Long.MAX_VALUE : req.getRange().getToMs(),
                        true)
                    .entrySet())
            : all.subList(Math.max(0, all.size() - req.getLast()), all.size());
    FetchResponse.Builder b = FetchResponse.newBuilder().setSeries(req.getSeries());
    chosen.forEach(e -> b.addPoints(point(e.getKey(), e.getValue())));
    reply(out, b.build());
  }

  @Override
  public void fetchConsolidated(
      FetchConsolidatedRequest req, StreamObserver<FetchConsolidatedResponse> out) {
    if (failures.failed("fetchConsolidated", out)) {
      return;
    }
    TreeMap<Long, Double> points = series.get(req.getSeries());
    double sum = points.values().stream().mapToDouble(Double::doubleValue).sum();
    reply(
        out,
        FetchConsolidatedResponse.newBuilder()
            .setSeries(req.getSeries())
            .setResolution(req.getResolution())
            .setStepSeconds(60)
            .addPoints(
                ConsolidatedPoint.newBuilder()
                    .setTimestampMs(points.firstKey())
                    .setAverage(sum / points.size())
                    .setMin(points.firstEntry().getValue())
                    .setMax(points.lastEntry().getValue()))
            .build());
  }

  @Override
  public void listSeries(ListSeriesRequest req, StreamObserver<ListSeriesResponse> out) {
    if (failures.failed("listSeries", out)) {
      return;
    }
    ListSeriesResponse.Builder b = ListSeriesResponse.newBuilder();
    series.forEach((name, points) -> b.addSeries(SeriesSummary.newBuilder().setSeries(name)));
    reply(out, b.build());
  }

  @Override
  public void watch(WatchRequest req, StreamObserver<WatchResponse> out) {
    ((ServerCallStreamObserver<WatchResponse>) out).setOnCancelHandler(watchCancelled::countDown);
    WatchResponse.Builder b = WatchResponse.newBuilder();
    for (String s : req.getPatternsList()) {
      SeriesPoints.Builder sp = SeriesPoints.newBuilder().setSeries(s);
      series
          .getOrDefault(s, new TreeMap<>())
          .tailMap(req.getSinceMs(), false)
          .forEach((t, v) -> sp.addPoints(point(t, v)));
      b.addBatches(sp);
    }
    out.onNext(b.build());
    // Left open, like a real watch, until the client cancels.
  }

  static Measurement point(long t, double v) {
    return Measurement.newBuilder().setTimestampMs(t).setValue(v).build();
  }
}
