package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.Context;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.MetricValues;

/** The memory-host daemon's own metrics, read from the process's default registry. */
class MemoryHostMetricsTest {
  private static final String DAEMON = "memory";

  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private static double value(String name) {
    return MetricValues.of(name, "daemon", DAEMON);
  }

  private static SeriesPoints points(String series, long... ts) {
    SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(series);
    for (long t : ts) {
      b.addPoints(Measurement.newBuilder().setTimestampMs(t).setValue(0.5));
    }
    return b.build();
  }

  @Test
  void daemon_countsNewPointsCommitsSeriesAndWatchers_andForgetsGaugesWhenClosed()
      throws Exception {
    MemoryHostProperties p =
        MemoryHostProperties.defaults()
            .with(MemoryHostProperties.DATA_DIR, dir.toString())
            .with(MemoryHostProperties.HOST, "m")
            // nobody there: the registrar just retries
            .with(MemoryHostProperties.NAMESERVER, "localhost:1");
    String name = GrpcCleanupExtension.newName();
    double appended = value("netweather_memory_appended_measurements");
    double commits = value("netweather_memory_wal_commit_duration_seconds");
    double series = value("netweather_memory_series");
    double watches = value("netweather_memory_watch_streams");
    long t = System.currentTimeMillis() - 60_000;
    AppendRequest req =
        AppendRequest.newBuilder()
            .addBatches(points("cpu.availability:a", t, t + 1000, t + 1000))
            .addBatches(points("memory.free:a", t))
            .build();

    try (MemoryHostServer m = MemoryHostServer.start(p, InProcessServerBuilder.forName(name))) {
      MemoryHostGrpc.MemoryHostBlockingStub stub =
          MemoryHostGrpc.newBlockingStub(grpc.channel(name));
      assertEquals(3, stub.append(req).getStored());
      assertEquals(
          appended + 3,
          value("netweather_memory_appended_measurements"),
          "new points only, not the duplicate within the request");
      assertEquals(commits + 1, value("netweather_memory_wal_commit_duration_seconds"));
      assertEquals(series + 2, value("netweather_memory_series"));

      assertEquals(0, stub.append(req).getStored());
      assertEquals(
          appended + 3,
          value("netweather_memory_appended_measurements"),
          "a retried append stores nothing");
      assertEquals(
          commits + 1,
          value("netweather_memory_wal_commit_duration_seconds"),
          "nothing new, nothing written");

      Context.CancellableContext ctx = Context.current().withCancellation();
      ctx.run(
          () ->
              MemoryHostGrpc.newStub(grpc.channel(name))
                  .watch(
                      WatchRequest.newBuilder().addPatterns("*").setLiveOnly(true).build(),
                      ignore()));
      assertEquals(
          watches + 1,
          MetricValues.await(watches + 1, () -> value("netweather_memory_watch_streams")));
      ctx.cancel(null);
      assertEquals(
          watches, MetricValues.await(watches, () -> value("netweather_memory_watch_streams")));
    }
    assertEquals(series, value("netweather_memory_series"), "a stopped daemon reports nothing");
  }

  private static StreamObserver<WatchResponse> ignore() {
    return new StreamObserver<>() {
      @Override
      public void onNext(WatchResponse value) {}

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {}
    };
  }
}
