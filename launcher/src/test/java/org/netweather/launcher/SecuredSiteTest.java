package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Measurement;
import org.netweather.client.NetWeatherClient;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.runtime.tls.DaemonTransport;
import org.netweather.testing.TestCertificates;

/**
 * A nameserver and a memory-host configured with mutual TLS over real sockets: the memory-host
 * registers over TLS, a client with a site certificate stores and reads back a measurement, clients
 * without one, or with a certificate from another CA, get nothing, and a sensor's certificate lets
 * it write only its own host's series and register only as a sensor.
 */
class SecuredSiteTest {
  @TempDir Path dir;

  @BeforeAll
  static void needsOpenssl() {
    assumeTrue(TestCertificates.opensslPresent(), "openssl is not installed");
  }

  private static ChannelCredentials client(Path[] certAndKey, Path ca) throws Exception {
    return TlsChannelCredentials.newBuilder()
        .keyManager(certAndKey[0].toFile(), certAndKey[1].toFile())
        .trustManager(ca.toFile())
        .build();
  }

  @Test
  void securedDaemons_serveCertifiedCallers_only() throws Exception {
    TestCertificates certs = new TestCertificates(dir);
    Path ca = certs.ca("site-ca");
    Path[] nsCert = certs.issue("site-ca", "nameserver", "localhost", "nameserver");
    Path[] memCert = certs.issue("site-ca", "memory", "localhost", "memory");
    Path[] admin = certs.issue("site-ca", "admin", "ops.example", "admin");
    Path[] sensorAlpha = certs.issue("site-ca", "alpha", "alpha", "sensor");
    certs.ca("other-ca");
    Path[] stranger = certs.issue("other-ca", "stranger", "localhost", "admin");

    NameserverProperties nsp =
        NameserverProperties.defaults()
            .with(NameserverProperties.PORT, 0)
            .with(NameserverProperties.METRICS_PORT, -1)
            .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
            .with(NameserverProperties.TLS_CERT, nsCert[0].toString())
            .with(NameserverProperties.TLS_KEY, nsCert[1].toString())
            .with(NameserverProperties.TLS_CA, ca.toString());
    try (DaemonTransport nsTransport = DaemonTransport.of(nsp.tls());
        NameserverServer ns =
            NameserverServer.start(nsp, nsTransport.server("", 0), nsTransport.channels())) {
      String nameserver = "localhost:" + ns.getPort();
      MemoryHostProperties mp =
          MemoryHostProperties.defaults()
              .with(MemoryHostProperties.PORT, 0)
              .with(MemoryHostProperties.METRICS_PORT, -1)
              .with(MemoryHostProperties.DATA_DIR, dir.resolve("mem").toString())
              .with(MemoryHostProperties.NAMESERVER, nameserver)
              .with(MemoryHostProperties.HOST, "localhost")
              .with(MemoryHostProperties.TLS_CERT, memCert[0].toString())
              .with(MemoryHostProperties.TLS_KEY, memCert[1].toString())
              .with(MemoryHostProperties.TLS_CA, ca.toString());
      try (DaemonTransport memTransport = DaemonTransport.of(mp.tls());
          MemoryHostServer memory =
              MemoryHostServer.start(mp, memTransport.server("", 0), memTransport.channels());
          NetWeatherClient ops =
              NetWeatherClient.forAddress(nameserver)
                  .credentials(client(admin, ca))
                  .deadline(Duration.ofSeconds(10))
                  .build()) {
        // The memory-host registered over TLS, so the nameserver sends the series to it.
        ops.put(
            "cpu.availability:alpha",
            List.of(
                Measurement.newBuilder()
                    .setTimestampMs(System.currentTimeMillis())
                    .setValue(0.75)
                    .build()));
        assertEquals(0.75, ops.last("cpu.availability:alpha", 1).getPoints(0).getValue(), 1e-12);
        assertEquals(1, memory.store().count("cpu.availability:alpha"));
        // nws status shows who answers at each address.
        org.netweather.client.DaemonHealth health =
            ops.identifiedHealth("localhost:" + memory.getPort(), Duration.ofSeconds(5));
        assertTrue(health.tls());
        assertEquals("memory@localhost", health.identity());

        // Bad input is refused whoever sends it: an absurd value, a filter nested too deep.
        StatusRuntimeException absurd =
            assertThrows(
                StatusRuntimeException.class,
                () -> ops.put("tcp.bandwidth:alpha->beta", List.of(point(1e308))));
        assertEquals(Status.Code.INVALID_ARGUMENT, absurd.getStatus().getCode());
        assertEquals(0, memory.store().count("tcp.bandwidth:alpha->beta"));
        StatusRuntimeException deep =
            assertThrows(
                StatusRuntimeException.class,
                () -> ops.search("(&".repeat(5_000) + "(kind=memory)" + ")".repeat(5_000)));
        assertEquals(Status.Code.INVALID_ARGUMENT, deep.getStatus().getCode());

        for (ChannelCredentials bad :
            List.of(InsecureChannelCredentials.create(), client(stranger, ca))) {
          try (NetWeatherClient outsider =
              NetWeatherClient.forAddress(nameserver)
                  .credentials(bad)
                  .deadline(Duration.ofSeconds(5))
                  .maxAttempts(1)
                  .build()) {
            StatusRuntimeException e =
                assertThrows(
                    StatusRuntimeException.class, () -> outsider.last("cpu.availability:alpha", 1));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
          }
        }
        assertEquals(1, memory.store().count("cpu.availability:alpha"));

        // Authorization by certificate: sensor alpha writes its own host's series only, and
        // cannot pass itself off as a memory-host.
        try (NetWeatherClient alpha =
            NetWeatherClient.forAddress(nameserver)
                .credentials(client(sensorAlpha, ca))
                .deadline(Duration.ofSeconds(10))
                .maxAttempts(1)
                .build()) {
          alpha.put("tcp.latency:alpha->beta", List.of(point(1.5)));
          StatusRuntimeException forged =
              assertThrows(
                  StatusRuntimeException.class,
                  () -> alpha.put("cpu.availability:beta", List.of(point(0.0))));
          assertEquals(Status.Code.PERMISSION_DENIED, forged.getStatus().getCode());
          assertEquals(0, memory.store().count("cpu.availability:beta"));
          assertEquals(1, memory.store().count("tcp.latency:alpha->beta"));
          // Cliques are the admin's: a sensor cannot aim the site's probes.
          StatusRuntimeException tamper =
              assertThrows(
                  StatusRuntimeException.class,
                  () ->
                      alpha.putClique(
                          org.netweather.api.v1.Clique.newBuilder()
                              .setName("lab")
                              .addMembers("alpha")
                              .addMembers("127.0.0.1:9999")
                              .setPeriodSeconds(60)
                              .build()));
          assertEquals(Status.Code.PERMISSION_DENIED, tamper.getStatus().getCode());
          assertTrue(alpha.cliques("alpha").isEmpty(), "no clique was made");
        }
        io.grpc.ManagedChannel asAlpha =
            io.grpc.Grpc.newChannelBuilder(nameserver, client(sensorAlpha, ca)).build();
        try {
          StatusRuntimeException hijack =
              assertThrows(
                  StatusRuntimeException.class,
                  () ->
                      org.netweather.api.v1.NameserverGrpc.newBlockingStub(asAlpha)
                          .register(
                              org.netweather.api.v1.RegisterRequest.newBuilder()
                                  .setTtlSeconds(60)
                                  .setRegistration(
                                      org.netweather.api.v1.Registration.newBuilder()
                                          .setName("memory@evil")
                                          .setKind("memory")
                                          .setAddress("127.0.0.1:1"))
                                  .build()));
          assertEquals(Status.Code.PERMISSION_DENIED, hijack.getStatus().getCode());
          assertTrue(hijack.getStatus().getDescription().contains("needs a memory certificate"));
        } finally {
          asAlpha.shutdownNow();
        }
        // A sensor with its own certificate registers (its address answering as itself) and
        // delivers its host's measurements over TLS.
        Path[] sensorLocal = certs.issue("site-ca", "sensor-local", "localhost", "sensor");
        org.netweather.sensor.daemon.SensorProperties sp =
            org.netweather.sensor.daemon.SensorProperties.defaults()
                .with(org.netweather.sensor.daemon.SensorProperties.HOST, "localhost")
                .with(org.netweather.sensor.daemon.SensorProperties.PORT, 0)
                .with(org.netweather.sensor.daemon.SensorProperties.PROBE_PORT, 0)
                .with(org.netweather.sensor.daemon.SensorProperties.METRICS_PORT, -1)
                .with(org.netweather.sensor.daemon.SensorProperties.NAMESERVER, nameserver)
                .with(
                    org.netweather.sensor.daemon.SensorProperties.DATA_DIR,
                    dir.resolve("sensor").toString())
                .with(org.netweather.sensor.daemon.SensorProperties.CPU_PERIOD_SECONDS, 1)
                .with(org.netweather.sensor.daemon.SensorProperties.DELIVERY_INTERVAL_MS, 200L)
                .with(
                    org.netweather.sensor.daemon.SensorProperties.TLS_CERT,
                    sensorLocal[0].toString())
                .with(
                    org.netweather.sensor.daemon.SensorProperties.TLS_KEY,
                    sensorLocal[1].toString())
                .with(org.netweather.sensor.daemon.SensorProperties.TLS_CA, ca.toString());
        try (DaemonTransport sensorTransport = DaemonTransport.of(sp.tls());
            org.netweather.sensor.daemon.SensorServer sensor =
                org.netweather.sensor.daemon.SensorServer.start(
                    sp, sensorTransport.server("", 0), sensorTransport.channels())) {
          long deadline = System.currentTimeMillis() + 30_000;
          while (memory.store().count("cpu.availability:localhost") == 0
              && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
          }
          assertTrue(memory.store().count("cpu.availability:localhost") > 0, "delivered over TLS");
          assertEquals(
              "localhost:" + sensor.getPort(), ops.lookup("sensor@localhost").getAddress());
        }

        // Refusals are counted by method and code.
        assertTrue(
            refusals("Append") >= 1, "a refused Append is counted in netweather_rpc_server_calls");

        // A memory certificate may register only an address where its own certificate answers,
        // and only so many names.
        io.grpc.ManagedChannel asMemory =
            io.grpc.Grpc.newChannelBuilder(nameserver, client(memCert, ca)).build();
        try {
          var stub =
              org.netweather.api.v1.NameserverGrpc.newBlockingStub(asMemory)
                  .withDeadlineAfter(20, java.util.concurrent.TimeUnit.SECONDS);
          StatusRuntimeException elsewhere =
              assertThrows(
                  StatusRuntimeException.class,
                  () -> stub.register(memoryAt("memory@localhost", nameserver)));
          assertEquals(Status.Code.PERMISSION_DENIED, elsewhere.getStatus().getCode());
          assertTrue(
              elsewhere.getStatus().getDescription().contains("answers as nameserver@localhost"),
              elsewhere.getStatus().getDescription());
          StatusRuntimeException dead =
              assertThrows(
                  StatusRuntimeException.class,
                  () -> stub.register(memoryAt("memory@localhost", "127.0.0.1:1")));
          assertEquals(Status.Code.FAILED_PRECONDITION, dead.getStatus().getCode());
          assertEquals(
              "localhost:" + memory.getPort(),
              ops.lookup("memory@localhost").getAddress(),
              "the real record is untouched");

          String own = "localhost:" + memory.getPort();
          int limit = NameserverProperties.MAX_REGISTRATIONS_PER_CALLER.defaultValue();
          for (int i = 1; i < limit; i++) { // memory@localhost itself is the first
            stub.register(memoryAt("memory@extra" + i, own));
          }
          StatusRuntimeException flood =
              assertThrows(
                  StatusRuntimeException.class,
                  () -> stub.register(memoryAt("memory@extra" + limit, own)));
          assertEquals(Status.Code.RESOURCE_EXHAUSTED, flood.getStatus().getCode());
          assertTrue(flood.getStatus().getDescription().contains("maxRegistrationsPerCaller"));
          ops.registry().unregister("memory@extra1");
          stub.register(memoryAt("memory@extra" + limit, own)); // a freed place is reused
        } finally {
          asMemory.shutdownNow();
        }
      }
    }
  }

  @Test
  void anonymousReads_letUncertifiedCallersRead_andNothingElse() throws Exception {
    TestCertificates certs = new TestCertificates(dir);
    Path ca = certs.ca("site-ca");
    Path[] nsCert = certs.issue("site-ca", "nameserver", "localhost", "nameserver");
    NameserverProperties nsp =
        NameserverProperties.defaults()
            .with(NameserverProperties.PORT, 0)
            .with(NameserverProperties.METRICS_PORT, -1)
            .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
            .with(NameserverProperties.TLS_CERT, nsCert[0].toString())
            .with(NameserverProperties.TLS_KEY, nsCert[1].toString())
            .with(NameserverProperties.TLS_CA, ca.toString())
            .with(NameserverProperties.TLS_ANONYMOUS_READS, true);
    try (DaemonTransport nsTransport = DaemonTransport.of(nsp.tls());
        NameserverServer ns =
            NameserverServer.start(nsp, nsTransport.server("", 0), nsTransport.channels());
        NetWeatherClient reader =
            NetWeatherClient.forAddress("localhost:" + ns.getPort())
                .credentials(TlsChannelCredentials.newBuilder().trustManager(ca.toFile()).build())
                .deadline(Duration.ofSeconds(10))
                .maxAttempts(1)
                .build()) {
      assertEquals(
          "nameserver", reader.search("(kind=nameserver)").get(0).getKind(), "a read is served");
      StatusRuntimeException write =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  reader.putClique(
                      org.netweather.api.v1.Clique.newBuilder()
                          .setName("lab")
                          .addMembers("a")
                          .addMembers("b")
                          .setPeriodSeconds(60)
                          .build()));
      assertEquals(Status.Code.UNAUTHENTICATED, write.getStatus().getCode());
      assertTrue(reader.cliques("a").isEmpty());
    }
  }

  private static org.netweather.api.v1.RegisterRequest memoryAt(String name, String address) {
    return org.netweather.api.v1.RegisterRequest.newBuilder()
        .setTtlSeconds(60)
        .setRegistration(
            org.netweather.api.v1.Registration.newBuilder()
                .setName(name)
                .setKind("memory")
                .setAddress(address))
        .build();
  }

  /** Calls to {@code method} refused with PERMISSION_DENIED, from the process's metrics. */
  private static double refusals(String method) {
    double n = 0;
    for (var snapshot :
        io.prometheus.metrics.model.registry.PrometheusRegistry.defaultRegistry.scrape()) {
      if (!snapshot.getMetadata().getName().equals("netweather_rpc_server_calls")) {
        continue;
      }
      for (var point : snapshot.getDataPoints()) {
        var labels = point.getLabels();
        if (labels.get("method").endsWith("/" + method)
            && "PERMISSION_DENIED".equals(labels.get("code"))) {
          n +=
              ((io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot)
                      point)
                  .getValue();
        }
      }
    }
    return n;
  }

  private static Measurement point(double v) {
    return Measurement.newBuilder().setTimestampMs(System.currentTimeMillis()).setValue(v).build();
  }
}
