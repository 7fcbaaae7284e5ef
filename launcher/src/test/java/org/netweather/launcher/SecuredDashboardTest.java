package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.ChannelCredentials;
import io.grpc.TlsChannelCredentials;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Measurement;
import org.netweather.cli.web.WebServer;
import org.netweather.client.NetWeatherClient;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.runtime.tls.DaemonTransport;
import org.netweather.testing.TestCertificates;

/**
 * The dashboard on a site secured with mutual TLS, over real sockets: with the site's certificates
 * its pages read the site as on a plaintext one (the site page shows every daemon SERVING with the
 * identity its certificate proves, a series page's data carries its unit and headline); without
 * them it answers 503 naming the nameserver and pointing at the certificate variables.
 */
class SecuredDashboardTest {
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

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void securedSite_readsLikeAPlaintextOne_andWithoutCertificatesSaysWhatIsDown() throws Exception {
    TestCertificates certs = new TestCertificates(dir);
    Path ca = certs.ca("site-ca");
    Path[] nsCert = certs.issue("site-ca", "nameserver", "localhost", "nameserver");
    Path[] memCert = certs.issue("site-ca", "memory", "localhost", "memory");
    Path[] admin = certs.issue("site-ca", "admin", "ops.example", "admin");
    NameserverProperties nsp =
        NameserverProperties.defaults()
            .with(NameserverProperties.PORT, 0)
            .with(NameserverProperties.METRICS_PORT, -1)
            .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
            .with(NameserverProperties.HOST, "localhost")
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
                  .build();
          NetWeatherClient anonymous =
              NetWeatherClient.forAddress(nameserver).deadline(Duration.ofSeconds(3)).build();
          WebServer web = WebServer.start(ops, "127.0.0.1", 0, Clock.systemUTC());
          WebServer plain = WebServer.start(anonymous, "127.0.0.1", 0, Clock.systemUTC())) {
        long now = System.currentTimeMillis();
        ops.put(
            "cpu.availability:alpha",
            List.of(
                Measurement.newBuilder().setTimestampMs(now - 10_000).setValue(0.7).build(),
                Measurement.newBuilder().setTimestampMs(now).setValue(0.75).build()));

        HttpResponse<String> site = get(web.port(), "/");
        assertEquals(200, site.statusCode(), site.body());
        assertTrue(site.body().contains("memory@localhost"), site.body());
        assertFalse(site.body().contains("UNREACHABLE"), site.body());
        assertFalse(site.body().contains(">plaintext<"), site.body());
        assertTrue(site.body().contains("2 daemons"), site.body());

        HttpResponse<String> series = get(web.port(), "/api/series/cpu.availability:alpha");
        assertEquals(200, series.statusCode(), series.body());
        assertTrue(series.body().contains("\"unit\":\"fraction\""), series.body());
        assertTrue(series.body().contains("\"next\":{\"value\":"), series.body());

        HttpResponse<String> refused = get(plain.port(), "/");
        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains(nameserver), refused.body());
        assertTrue(refused.body().contains("NWS_TLS_CERT"), refused.body());
      }
    }
  }
}
