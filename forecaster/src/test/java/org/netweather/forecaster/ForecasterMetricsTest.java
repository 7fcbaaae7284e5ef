package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.InProcessChannels;
import org.netweather.testing.MetricValues;

/**
 * The forecaster daemon's own metrics, read from the process's default registry, while it follows a
 * fake memory-host found through a fake nameserver (both in-process).
 */
class ForecasterMetricsTest {
  private static final String DAEMON = "forecaster";

  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

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
  void daemon_countsMeasurementsFedSeriesAndMemoryHosts_andForgetsGaugesWhenClosed()
      throws Exception {
    String memory = GrpcCleanupExtension.newName();
    String nameserver = GrpcCleanupExtension.newName();
    grpc.register(
        InProcessServerBuilder.forName(nameserver)
            .addService(
                new NameserverGrpc.NameserverImplBase() {
                  @Override
                  public void search(SearchRequest req, StreamObserver<SearchResponse> out) {
                    out.onNext(
                        SearchResponse.newBuilder()
                            .addRegistrations(
                                Registration.newBuilder()
                                    .setName("memory@m")
                                    .setKind("memory")
                                    .setAddress(memory + ":0"))
                            .build());
                    out.onCompleted();
                  }
                })
            .build()
            .start());
    // Five measurements, then the last two of series a again with two new ones: a resumed
    // stream overlaps, and the batteries (and the counter) take only the new ones.
    grpc.register(
        InProcessServerBuilder.forName(memory)
            .addService(
                new MemoryHostGrpc.MemoryHostImplBase() {
                  @Override
                  public void watch(WatchRequest req, StreamObserver<WatchResponse> out) {
                    out.onNext(
                        WatchResponse.newBuilder()
                            .addBatches(points("cpu.availability:a", 1000, 2000, 3000))
                            .addBatches(points("cpu.availability:b", 1000, 2000))
                            .build());
                    out.onNext(
                        WatchResponse.newBuilder()
                            .addBatches(points("cpu.availability:a", 2000, 3000, 4000, 5000))
                            .build());
                    // Left open, as a live stream is.
                  }
                })
            .build()
            .start());
    ForecasterProperties p =
        ForecasterProperties.defaults()
            .with(ForecasterProperties.NAMESERVER, nameserver + ":0")
            .with(ForecasterProperties.HOST, "f")
            .with(ForecasterProperties.DISCOVERY_MS, 100L);
    double observed = value("netweather_forecaster_observed_measurements");
    double series = value("netweather_forecaster_series");
    double followed = value("netweather_forecaster_followed_memory_hosts");
    double owned = value("netweather_forecaster_owned_shards");
    double warm = value("netweather_forecaster_warm_shards");

    try (ForecasterServer f =
        ForecasterServer.start(
            p,
            InProcessServerBuilder.forName(GrpcCleanupExtension.newName()),
            InProcessChannels::forAddress)) {
      assertEquals(
          observed + 7,
          MetricValues.await(
              observed + 7, () -> value("netweather_forecaster_observed_measurements")));
      assertEquals(series + 2, value("netweather_forecaster_series"));
      assertEquals(followed + 1, value("netweather_forecaster_followed_memory_hosts"));
      // Alone (no shared registry) it owns and serves every shard.
      assertEquals(owned + 4096, value("netweather_forecaster_owned_shards"));
      assertEquals(warm + 4096, value("netweather_forecaster_warm_shards"));
    }
    assertEquals(series, value("netweather_forecaster_series"), "a stopped daemon reports nothing");
    assertEquals(followed, value("netweather_forecaster_followed_memory_hosts"));
    assertEquals(owned, value("netweather_forecaster_owned_shards"));
  }
}
