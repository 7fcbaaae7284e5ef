package org.netweather.launcher;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.web.WebServer;
import org.netweather.client.NetWeatherClient;
import org.netweather.forecaster.ForecasterProperties;
import org.netweather.forecaster.ForecasterServer;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;
import org.netweather.runtime.Channels;

/**
 * The dashboard in a real browser (Debian's Chromium driven by playwright-core) against real
 * daemons on loopback, in each state an operator meets: a healthy site holding a three-host
 * cluster's series (units and no exponents, threshold colours and their legend, connect time and
 * ages, a CPU band within [0, 1], UTC time labels that do not overlap, a headline), a new pair's
 * page with one point, an empty site (the commands that fill it), and a site whose nameserver is
 * down (HTTP 503 naming the address); and a new measurement reaches the open cluster page within
 * seconds. Screenshots of each state go to target/dashboard-screenshots.
 */
class DashboardBrowserIT {
  private static final Path HOME =
      Path.of(System.getProperty("netweather.home", "..")).toAbsolutePath().normalize();
  private static final List<String> HOSTS = List.of("h1", "h2", "h3");
  @TempDir Path dir;

  private static boolean runs(String... cmd) {
    try {
      return new ProcessBuilder(cmd).start().waitFor() == 0;
    } catch (Exception e) {
      return false;
    }
  }

  private static SeriesPoints series(String name, long lastMs, double value, double jitter) {
    SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(name);
    for (int k = 0; k < 30; k++) {
      b.addPoints(
          Measurement.newBuilder()
              .setTimestampMs(lastMs - (29 - k) * 10_000L)
              .setValue(value + jitter * ((k * 7) % 5 - 2)));
    }
    return b.build();
  }

  /** A CPU fraction that climbs to 1 and drops: its unclipped band would reach past 1. */
  private static SeriesPoints climbingCpu(String name, long lastMs) {
    double[] v = {
      0.63, 0.64, 0.65, 0.71, 0.72, 0.75, 0.71, 0.73, 0.74, 0.77, 0.8, 0.81, 0.76, 0.78, 0.79, 0.8,
      0.82, 0.84, 0.92, 0.73, 0.8, 0.87, 0.95, 0.98, 1.0, 0.91
    };
    SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(name);
    for (int k = 0; k < v.length; k++) {
      b.addPoints(
          Measurement.newBuilder()
              .setTimestampMs(lastMs - (v.length - 1 - k) * 10_000L)
              .setValue(v[k]));
    }
    return b.build();
  }

  private static NameserverServer nameserver(Path data) throws Exception {
    return NameserverServer.start(
        NameserverProperties.defaults()
            .with(NameserverProperties.DATA_DIR, data.toString())
            .with(NameserverProperties.METRICS_PORT, -1)
            .with(NameserverProperties.HOST, "localhost"),
        NettyServerBuilder.forPort(0));
  }

  private static ProxyServer proxy(String nameserver, String cluster, List<String> hosts)
      throws Exception {
    return ProxyServer.start(
        ProxyProperties.defaults()
            .with(ProxyProperties.METRICS_PORT, -1)
            .with(ProxyProperties.HOST, "localhost")
            .with(ProxyProperties.NAMESERVER, nameserver)
            .with(ProxyProperties.CLUSTER, cluster)
            .with(ProxyProperties.HOSTS, hosts),
        NettyServerBuilder.forPort(0),
        Channels::plaintext);
  }

  /** A loopback port nothing listens on: bound, then released. */
  private static int deadPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  @Timeout(600)
  void everyPageLoads_showsTheStoredData_andFollowsANewMeasurement() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/chromium")), "Debian's chromium is missing");
    assumeTrue(runs("node", "--version") && runs("npm", "--version"), "node and npm are needed");
    Path playwright = HOME.resolve("launcher/target/playwright");
    if (!Files.isDirectory(playwright.resolve("node_modules/playwright-core"))) {
      Files.createDirectories(playwright);
      Process npm =
          new ProcessBuilder(
                  "npm",
                  "install",
                  "--no-save",
                  "--silent",
                  "--prefix",
                  playwright.toString(),
                  "playwright-core@1.65.1")
              .inheritIO()
              .start();
      assertEquals(0, npm.waitFor(), "npm install playwright-core");
    }
    Files.copy(
        HOME.resolve("launcher/src/test/browser/dashboard.mjs"),
        playwright.resolve("dashboard.mjs"),
        StandardCopyOption.REPLACE_EXISTING);

    try (NameserverServer ns = nameserver(dir.resolve("ns"));
        NameserverServer emptyNs = nameserver(dir.resolve("empty-ns"))) {
      String nameserver = "localhost:" + ns.getPort();
      String emptyNameserver = "localhost:" + emptyNs.getPort();
      String downAddress = "127.0.0.1:" + deadPort();
      try (MemoryHostServer memory =
              MemoryHostServer.start(
                  MemoryHostProperties.defaults()
                      .with(MemoryHostProperties.DATA_DIR, dir.resolve("mem").toString())
                      .with(MemoryHostProperties.METRICS_PORT, -1)
                      .with(MemoryHostProperties.HOST, "localhost")
                      .with(MemoryHostProperties.NAMESERVER, nameserver),
                  NettyServerBuilder.forPort(0));
          ForecasterServer forecaster =
              ForecasterServer.start(
                  ForecasterProperties.defaults()
                      .with(ForecasterProperties.METRICS_PORT, -1)
                      .with(ForecasterProperties.HOST, "localhost")
                      .with(ForecasterProperties.NAMESERVER, nameserver),
                  NettyServerBuilder.forPort(0),
                  Channels::plaintext);
          ProxyServer proxy = proxy(nameserver, "lab", HOSTS);
          ProxyServer emptyProxy = proxy(emptyNameserver, "new", List.of("a1", "a2"));
          NetWeatherClient client =
              NetWeatherClient.forAddress(nameserver).deadline(Duration.ofSeconds(20)).build();
          NetWeatherClient emptyClient =
              NetWeatherClient.forAddress(emptyNameserver)
                  .deadline(Duration.ofSeconds(20))
                  .build();
          NetWeatherClient downClient =
              NetWeatherClient.forAddress(downAddress).deadline(Duration.ofSeconds(3)).build()) {
        long now = System.currentTimeMillis();
        List<SeriesPoints> data = new ArrayList<>();
        for (String h : HOSTS) {
          data.add(
              h.equals("h1")
                  ? climbingCpu("cpu.availability:h1", now)
                  : series("cpu.availability:" + h, now, 0.6, 0.05));
          data.add(series("memory.free:" + h, now, 22_000, 50));
          for (String d : HOSTS) {
            if (h.equals(d) || (h.equals("h3") && d.equals("h1"))) {
              continue; // h3->h1 never measured: a missing cell
            }
            boolean old = h.equals("h2") && d.equals("h3"); // minutes behind: stale
            long last = old ? now - 5 * 60_000L : now;
            // h1->h2 is a healthy 5.5 Gbit/s link, slower than the others; h2->h1 is critical.
            double bw = h.equals("h1") && d.equals("h2") ? 5530 : h.equals("h2") ? 8 : 7720;
            double jitter = h.equals("h1") || h.equals("h2") ? 0 : 20;
            data.add(series("tcp.bandwidth:" + h + "->" + d, last, bw, jitter));
            data.add(series("tcp.latency:" + h + "->" + d, last, 0.42, 0.05));
            data.add(series("tcp.connect:" + h + "->" + d, last, 0.9, 0.1));
          }
        }
        // A new pair, measured once.
        data.add(
            SeriesPoints.newBuilder()
                .setSeries("tcp.bandwidth:h3->h9")
                .addPoints(Measurement.newBuilder().setTimestampMs(now).setValue(940))
                .build());
        client.put(data);
        client.putClique(
            Clique.newBuilder().setName("lab").addAllMembers(HOSTS).setPeriodSeconds(60).build());
        try (WebServer web = WebServer.start(client, "127.0.0.1", 0, Clock.systemUTC());
            WebServer empty = WebServer.start(emptyClient, "127.0.0.1", 0, Clock.systemUTC());
            WebServer down = WebServer.start(downClient, "127.0.0.1", 0, Clock.systemUTC())) {
          Path shots =
              Files.createDirectories(HOME.resolve("launcher/target/dashboard-screenshots"));
          Map<String, Object> config = new LinkedHashMap<>();
          config.put("base", "http://127.0.0.1:" + web.port());
          config.put("cluster", "lab");
          config.put("hosts", HOSTS);
          config.put("cpuSeries", "cpu.availability:h1");
          config.put("newSeries", "tcp.bandwidth:h3->h9");
          config.put("emptyBase", "http://127.0.0.1:" + empty.port());
          config.put("emptyCluster", "new");
          config.put("downBase", "http://127.0.0.1:" + down.port());
          config.put("downAddress", downAddress);
          config.put("out", shots.toString());
          config.put(
              "put",
              List.of(
                  HOME.resolve("bin/nws").toString(),
                  "put",
                  "tcp.bandwidth:h1->h2",
                  "6100",
                  "--nameserver",
                  nameserver));
          Process browser =
              new ProcessBuilder("node", "dashboard.mjs", JsonWriter.write(config))
                  .directory(playwright.toFile())
                  .redirectErrorStream(true)
                  .start();
          String out = new String(browser.getInputStream().readAllBytes(), UTF_8);
          System.out.println(out);
          assertEquals(true, browser.waitFor(300, TimeUnit.SECONDS), "the browser run hung");
          assertEquals(0, browser.exitValue(), "dashboard checks:\n" + out);
          // The browser is gone: its live view ends (and its proxy stream with it) by the next
          // snapshot or keep-alive at the latest.
          long deadline = System.currentTimeMillis() + 30_000;
          while (web.liveViews() > 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
          }
          assertEquals(0, web.liveViews(), "a closed page still streamed to");
        }
      }
    }
  }
}
