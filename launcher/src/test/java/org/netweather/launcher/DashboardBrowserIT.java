package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesPoints;
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
 * daemons on loopback holding a three-host cluster's series: every page loads without console
 * errors, the matrices hold one cell per ordered pair with the stored values and the stale and
 * missing marks, the series page draws history and band, and a new measurement reaches the open
 * cluster page within seconds. Screenshots of each page go to target/dashboard-screenshots.
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

    try (NameserverServer ns =
        NameserverServer.start(
            NameserverProperties.defaults()
                .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
                .with(NameserverProperties.METRICS_PORT, -1)
                .with(NameserverProperties.HOST, "localhost"),
            NettyServerBuilder.forPort(0))) {
      String nameserver = "localhost:" + ns.getPort();
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
          ProxyServer proxy =
              ProxyServer.start(
                  ProxyProperties.defaults()
                      .with(ProxyProperties.METRICS_PORT, -1)
                      .with(ProxyProperties.HOST, "localhost")
                      .with(ProxyProperties.NAMESERVER, nameserver)
                      .with(ProxyProperties.CLUSTER, "lab")
                      .with(ProxyProperties.HOSTS, HOSTS),
                  NettyServerBuilder.forPort(0),
                  Channels::plaintext);
          NetWeatherClient client =
              NetWeatherClient.forAddress(nameserver).deadline(Duration.ofSeconds(20)).build()) {
        long now = System.currentTimeMillis();
        List<SeriesPoints> data = new ArrayList<>();
        for (String h : HOSTS) {
          data.add(series("cpu.availability:" + h, now, 0.6, 0.05));
          data.add(series("memory.free:" + h, now, 2000, 10));
          for (String d : HOSTS) {
            if (h.equals(d) || (h.equals("h3") && d.equals("h1"))) {
              continue; // h3->h1 never measured: a missing cell
            }
            boolean old = h.equals("h2") && d.equals("h3"); // minutes behind: stale
            long last = old ? now - 5 * 60_000L : now;
            double bw = h.equals("h1") && d.equals("h2") ? 100 : 400;
            data.add(series("tcp.bandwidth:" + h + "->" + d, last, bw, h.equals("h1") ? 0 : 20));
            data.add(series("tcp.latency:" + h + "->" + d, last, 0.5, 0.05));
          }
        }
        client.put(data);
        try (WebServer web = WebServer.start(client, "127.0.0.1", 0, Clock.systemUTC())) {
          Path shots =
              Files.createDirectories(HOME.resolve("launcher/target/dashboard-screenshots"));
          List<String> cmd =
              new ArrayList<>(
                  List.of(
                      "node",
                      "dashboard.mjs",
                      "http://127.0.0.1:" + web.port(),
                      "lab",
                      String.join(",", HOSTS),
                      "cpu.availability:h1",
                      shots.toString(),
                      HOME.resolve("bin/nws").toString(),
                      "put",
                      "tcp.bandwidth:h1->h2",
                      "500",
                      "--nameserver",
                      nameserver));
          Process browser =
              new ProcessBuilder(cmd)
                  .directory(playwright.toFile())
                  .redirectErrorStream(true)
                  .start();
          String out = new String(browser.getInputStream().readAllBytes());
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
