package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.inprocess.InProcessServerBuilder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AssignSeriesRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.Registration;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.MetricValues;

/** The nameserver daemon's own metrics, read from the process's default registry. */
class NameserverMetricsTest {
  private static final String DAEMON = "nameserver";

  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private static double value(String name) {
    return MetricValues.of(name, "daemon", DAEMON);
  }

  private static RegisterRequest register(String name, String kind, long ttlSeconds) {
    return RegisterRequest.newBuilder()
        .setTtlSeconds(ttlSeconds)
        .setRegistration(
            Registration.newBuilder().setName(name).setKind(kind).setAddress(name + ":1"))
        .build();
  }

  @Test
  void daemon_reportsLiveRegistrationsAndDirectory_andForgetsThemWhenClosed() throws Exception {
    NameserverProperties p =
        NameserverProperties.defaults()
            .with(NameserverProperties.DATA_DIR, dir.toString())
            .with(NameserverProperties.HOST, "n");
    String name = GrpcCleanupExtension.newName();
    double live = value("netweather_nameserver_live_registrations");
    double series = value("netweather_nameserver_directory_series");

    try (NameserverServer ns = NameserverServer.start(p, InProcessServerBuilder.forName(name))) {
      assertEquals(
          live + 1,
          value("netweather_nameserver_live_registrations"),
          "the nameserver registers itself");
      NameserverGrpc.NameserverBlockingStub stub =
          NameserverGrpc.newBlockingStub(grpc.channel(name));
      stub.register(register("memory-m", "memory", 3600));
      // Long enough that it is surely live when counted next, short enough to watch it lapse.
      stub.register(register("sensor-a", "sensor", 4));
      assertEquals(live + 3, value("netweather_nameserver_live_registrations"));
      stub.assignSeries(
          AssignSeriesRequest.newBuilder()
              .addAllSeries(List.of("cpu.availability:a", "memory.free:a"))
              .build());
      assertEquals(series + 2, value("netweather_nameserver_directory_series"));

      assertEquals(
          live + 2,
          MetricValues.await(live + 2, () -> value("netweather_nameserver_live_registrations")),
          "an expired lease is no longer counted");
    }
    assertEquals(
        live,
        value("netweather_nameserver_live_registrations"),
        "a stopped daemon reports nothing");
    assertEquals(series, value("netweather_nameserver_directory_series"));
  }
}
