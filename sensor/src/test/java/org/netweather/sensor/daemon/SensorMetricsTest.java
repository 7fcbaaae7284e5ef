package org.netweather.sensor.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Activity;
import org.netweather.api.v1.GetStatusRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;
import org.netweather.api.v1.SensorControlGrpc;
import org.netweather.api.v1.SensorStatus;
import org.netweather.api.v1.StartActivityRequest;
import org.netweather.sensor.spool.Spool;
import org.netweather.sensor.spool.SpoolOptions;
import org.netweather.sensor.spool.SpoolRecord;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.InProcessChannels;
import org.netweather.testing.MetricValues;

/**
 * The sensor daemon's own metrics, read from the process's default registry. Its nameserver is a
 * fake that knows one peer, whose probe port nobody listens on, and no memory-host: nothing is
 * delivered, so every measurement taken stays in the spool.
 */
class SensorMetricsTest {
  private static final String DAEMON = "sensor";

  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private static double value(String name, String... skill) {
    return skill.length == 0
        ? MetricValues.of(name, "daemon", DAEMON)
        : MetricValues.of(name, "daemon", DAEMON, "skill", skill[0]);
  }

  @Test
  void daemon_countsMeasurementsFailuresAndDrops_andReportsItsSpool() throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
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
                                    .setName("sensor@beta")
                                    .setKind("sensor")
                                    .setAddress("beta:1")
                                    .putAttributes("host", "beta")
                                    .putAttributes("probe", "127.0.0.1:" + deadPort))
                            .build());
                    out.onCompleted();
                  }
                })
            .build()
            .start());
    // A spool left by an earlier run, over the 8 KiB this daemon may use: its first append
    // drops the oldest segments.
    Path data = dir.resolve("sensor");
    try (Spool old = Spool.open(data.resolve("spool"), new SpoolOptions(1 << 20, 1024))) {
      for (int i = 0; i < 40; i++) {
        List<SpoolRecord> batch = new ArrayList<>();
        for (int j = 0; j < 10; j++) {
          batch.add(new SpoolRecord("memory.free:alpha", 1000L * (i * 10 + j + 1), 1));
        }
        old.append(batch);
      }
    }
    SensorProperties p =
        SensorProperties.defaults()
            .with(SensorProperties.HOST, "alpha")
            .with(SensorProperties.NAMESERVER, nameserver + ":0")
            .with(SensorProperties.DATA_DIR, data.toString())
            .with(SensorProperties.PROBE_PORT, 0)
            .with(SensorProperties.SPOOL_BYTES, 8192L)
            .with(SensorProperties.CPU_PERIOD_SECONDS, 3600) // each host skill once, at start
            .with(SensorProperties.MEMORY_PERIOD_SECONDS, 3600);
    double cpu = value("netweather_sensor_measurements", "cpu.availability");
    double memory = value("netweather_sensor_measurements", "memory.free");
    double latencyFailed = value("netweather_sensor_failed_measurements", "tcp.latency");
    double dropped = value("netweather_sensor_spool_dropped_measurements");
    double pending = value("netweather_sensor_spool_pending_measurements");
    double bytes = value("netweather_sensor_spool_bytes");
    String name = GrpcCleanupExtension.newName();

    try (SensorServer s =
        SensorServer.start(
            p, InProcessServerBuilder.forName(name), InProcessChannels::forAddress)) {
      SensorControlGrpc.SensorControlBlockingStub control =
          SensorControlGrpc.newBlockingStub(grpc.channel(name));
      control.startActivity(
          StartActivityRequest.newBuilder()
              .setActivity(
                  Activity.newBuilder()
                      .setName("latency")
                      .setSkill("tcp.latency")
                      .setPeriodSeconds(3600)
                      .addPeers("beta"))
              .build());
      assertEquals(
          cpu + 1,
          MetricValues.await(
              cpu + 1, () -> value("netweather_sensor_measurements", "cpu.availability")));
      assertEquals(
          memory + 1,
          MetricValues.await(
              memory + 1, () -> value("netweather_sensor_measurements", "memory.free")));
      assertEquals(
          latencyFailed + 1,
          MetricValues.await(
              latencyFailed + 1,
              () -> value("netweather_sensor_failed_measurements", "tcp.latency")),
          "a probe to a port nobody listens on fails");

      SensorStatus status = control.getStatus(GetStatusRequest.getDefaultInstance());
      assertTrue(status.getSpoolDropped() > 0, "the old spool was over its bound");
      assertEquals(
          dropped + status.getSpoolDropped(),
          value("netweather_sensor_spool_dropped_measurements"));
      assertEquals(
          pending + status.getSpooled(), value("netweather_sensor_spool_pending_measurements"));
      assertTrue(value("netweather_sensor_spool_bytes") - bytes > 0);
    }
    assertEquals(
        pending,
        value("netweather_sensor_spool_pending_measurements"),
        "a stopped daemon reports nothing");
    assertEquals(bytes, value("netweather_sensor_spool_bytes"));
  }
}
