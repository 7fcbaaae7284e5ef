package org.netweather.cli.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Registration;
import org.netweather.client.NetWeatherClient;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;

/**
 * With nothing listening at the nameserver's address, every page answers HTTP 503 naming the
 * nameserver and the address dialled, not gRPC's bare {@code UNAVAILABLE: io exception}: the site
 * page as HTML that reloads itself, the pages' data calls as one line of text. With the nameserver
 * up and a cluster's proxy down, the cluster's data call names the proxy and its address.
 */
class SiteDownTest {
  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** A loopback port nothing listens on: bound, then released. */
  private static int deadPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void nameserverDown_pagesAnswer503_namingItAndItsAddress() throws Exception {
    String address = "127.0.0.1:" + deadPort();
    try (NetWeatherClient client =
            NetWeatherClient.forAddress(address).deadline(Duration.ofSeconds(3)).build();
        WebServer web = WebServer.start(client, "127.0.0.1", 0, Clock.systemUTC())) {
      HttpResponse<String> site = get(web.port(), "/");
      assertEquals(503, site.statusCode(), site.body());
      assertTrue(site.headers().firstValue("content-type").orElse("").startsWith("text/html"));
      assertTrue(site.body().contains("The nameserver is down"), site.body());
      assertTrue(site.body().contains("<code id=\"address\">" + address + "</code>"), site.body());
      assertTrue(site.body().contains("http-equiv=\"refresh\""), site.body());
      assertTrue(site.body().contains("nws status --nameserver " + address), site.body());

      HttpResponse<String> cluster = get(web.port(), "/api/cluster/lab");
      assertEquals(503, cluster.statusCode(), cluster.body());
      assertTrue(
          cluster.body().startsWith("nameserver at " + address + " does not answer (UNAVAILABLE"),
          cluster.body());

      HttpResponse<String> series = get(web.port(), "/api/series/cpu.availability:h1");
      assertEquals(503, series.statusCode(), series.body());
      assertTrue(series.body().contains("nameserver at " + address), series.body());
      assertFalse(series.body().startsWith("UNAVAILABLE"), series.body());
    }
  }

  @Test
  void proxyDown_clusterData_namesTheProxyAndItsAddress(@TempDir Path dir) throws Exception {
    NameserverProperties nsp =
        NameserverProperties.defaults()
            .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
            .with(NameserverProperties.HOST, "localhost")
            .with(NameserverProperties.METRICS_PORT, -1);
    String proxyAddress = "127.0.0.1:" + deadPort();
    try (NameserverServer ns = NameserverServer.start(nsp, NettyServerBuilder.forPort(0));
        NetWeatherClient client =
            NetWeatherClient.forAddress("localhost:" + ns.getPort())
                .deadline(Duration.ofSeconds(3))
                .build();
        WebServer web = WebServer.start(client, "127.0.0.1", 0, Clock.systemUTC())) {
      // A proxy that registered, then died before its lease ran out.
      client
          .registry()
          .register(
              Registration.newBuilder()
                  .setName("proxy-lab@localhost")
                  .setKind("proxy")
                  .setAddress(proxyAddress)
                  .putAttributes("cluster", "lab")
                  .build(),
              60);
      HttpResponse<String> cluster = get(web.port(), "/api/cluster/lab");
      assertEquals(503, cluster.statusCode(), cluster.body());
      assertTrue(
          cluster.body().startsWith("proxy of cluster lab at " + proxyAddress + " does not answer"),
          cluster.body());
      // The site page still answers, and marks the proxy unreachable.
      HttpResponse<String> site = get(web.port(), "/");
      assertEquals(200, site.statusCode(), site.body());
      assertTrue(site.body().contains("UNREACHABLE"), site.body());
    }
  }
}
