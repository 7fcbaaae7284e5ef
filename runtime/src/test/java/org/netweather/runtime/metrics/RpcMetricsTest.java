package org.netweather.runtime.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.netweather.runtime.Daemon;
import org.netweather.testing.MetricValues;

class RpcMetricsTest {
  private static final String CHECK = "grpc.health.v1.Health/Check";

  @Test
  void countsEveryFinishedCall_byMethodAndCode_andTimesIt() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    AtomicLong now = new AtomicLong();
    RpcMetrics metrics = new RpcMetrics(registry, now::get);
    HealthStatusManager health = new HealthStatusManager();
    String name = InProcessServerBuilder.generateName();
    // Each call takes 3 ms of the fake clock. Interceptors added later run first, so the one
    // that advances the clock runs inside the metrics', after the call's start was read.
    Server server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(health.getHealthService())
            .intercept(
                new ServerInterceptor() {
                  @Override
                  public <Q, R> ServerCall.Listener<Q> interceptCall(
                      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                    now.addAndGet(3_000_000);
                    return next.startCall(call, headers);
                  }
                })
            .intercept(metrics.forDaemon("memory"))
            .build()
            .start();
    ManagedChannel ch = InProcessChannelBuilder.forName(name).directExecutor().build();
    try {
      HealthGrpc.HealthBlockingStub stub = HealthGrpc.newBlockingStub(ch);
      stub.check(HealthCheckRequest.getDefaultInstance());
      stub.check(HealthCheckRequest.getDefaultInstance());
      assertThrows(
          StatusRuntimeException.class,
          () -> stub.check(HealthCheckRequest.newBuilder().setService("no.such.Service").build()));

      assertEquals(
          2,
          MetricValues.of(
              registry,
              "netweather_rpc_server_calls",
              "daemon",
              "memory",
              "method",
              CHECK,
              "code",
              "OK"));
      assertEquals(
          1,
          MetricValues.of(
              registry,
              "netweather_rpc_server_calls",
              "daemon",
              "memory",
              "method",
              CHECK,
              "code",
              "NOT_FOUND"));
      assertEquals(
          3,
          MetricValues.of(
              registry,
              "netweather_rpc_server_duration_seconds",
              "daemon",
              "memory",
              "method",
              CHECK));
      assertEquals(0.009, sumOf(registry), 1e-12, "three calls of 3 ms each");
    } finally {
      ch.shutdownNow();
      server.shutdownNow();
    }
  }

  @Test
  void daemon_countsItsCallsUnderItsName() throws Exception {
    String daemon = "test-" + System.nanoTime();
    String name = InProcessServerBuilder.generateName();
    try (Daemon server =
        Daemon.start(
            daemon,
            InProcessServerBuilder.forName(name),
            d -> {
              d.serve(List.of());
              return d;
            })) {
      ManagedChannel ch = InProcessChannelBuilder.forName(name).build();
      try {
        HealthGrpc.newBlockingStub(ch).check(HealthCheckRequest.getDefaultInstance());
      } finally {
        ch.shutdownNow();
      }
    }
    assertEquals(
        1,
        MetricValues.of(
            PrometheusRegistry.defaultRegistry,
            "netweather_rpc_server_calls",
            "daemon",
            daemon,
            "method",
            CHECK,
            "code",
            "OK"));
  }

  private static double sumOf(PrometheusRegistry registry) {
    return registry.scrape().stream()
        .filter(m -> m instanceof HistogramSnapshot)
        .flatMap(m -> ((HistogramSnapshot) m).getDataPoints().stream())
        .mapToDouble(HistogramSnapshot.HistogramDataPointSnapshot::getSum)
        .sum();
  }
}
