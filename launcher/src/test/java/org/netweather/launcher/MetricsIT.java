package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.ManagedChannel;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Measurement;
import org.netweather.client.NetWeatherClient;

/**
 * {@code nws up}'s metrics endpoint as operators use it: scraped by a real Prometheus server,
 * linted by promtool, and holding the calls just made.
 */
class MetricsIT {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String APPENDS =
      "netweather_rpc_server_calls_total{code=\"OK\",daemon=\"memory\","
          + "method=\"netweather.v1.MemoryHost/Append\"}";

  @TempDir Path dir;

  @Test
  @Timeout(240)
  void prometheusScrapesEveryDaemonsMetricsFromNwsUp() throws Exception {
    assumeTrue(
        onPath("prometheus") && onPath("promtool"),
        "needs prometheus and promtool (apt-get install prometheus, as .ci/run does)");
    int ns = DaemonProcesses.freePort();
    int metrics = DaemonProcesses.freePort();
    try (DaemonProcesses procs = new DaemonProcesses(dir.resolve("logs"))) {
      procs.start(
          "up",
          "up",
          "--data-dir",
          dir.resolve("data").toString(),
          "--nameserver-port",
          "" + ns,
          "--memory-port",
          "" + DaemonProcesses.freePort(),
          "--forecaster-port",
          "" + DaemonProcesses.freePort(),
          "--proxy-port",
          "" + DaemonProcesses.freePort(),
          "--sensor-port",
          "" + DaemonProcesses.freePort(),
          "--probe-port",
          "" + DaemonProcesses.freePort(),
          "--metrics-port",
          "" + metrics,
          "--web-port",
          "0");
      ManagedChannel nsChannel = DaemonProcesses.channel(ns);
      try (NetWeatherClient client =
          NetWeatherClient.forChannel(nsChannel)
              .deadline(Duration.ofSeconds(5))
              .channels(address -> DaemonProcesses.channel(Integer.parseInt(address.split(":")[1])))
              .build()) {
        await(
            "every daemon started",
            () -> {
              try {
                return procs.log("up").contains("NetWeather is up");
              } catch (IOException e) {
                return false;
              }
            },
            procs);
        client.put(
            "user.metrics_test:alpha",
            List.of(
                Measurement.newBuilder()
                    .setTimestampMs(System.currentTimeMillis())
                    .setValue(1)
                    .build()));
      } finally {
        nsChannel.shutdownNow();
      }

      String body = get("http://127.0.0.1:" + metrics + "/metrics");
      // The sensor of nws up appends too, so the count is at least ours.
      double appends = sample(body, Pattern.quote(APPENDS) + " (\\S+)");
      assertTrue(appends >= 1, "appends counted:\n" + body);
      // Every daemon registers and heartbeats with the nameserver.
      assertTrue(
          body.contains(
              "netweather_rpc_server_calls_total{code=\"OK\","
                  + "daemon=\"nameserver\",method=\"netweather.v1.Nameserver/Register\"}"),
          "registrations:\n" + body);
      // Each daemon's own metrics, behind the one endpoint of nws up.
      for (String gauge :
          List.of(
              "netweather_nameserver_live_registrations{daemon=\"nameserver\"}",
              "netweather_memory_series{daemon=\"memory\"}",
              "netweather_forecaster_followed_memory_hosts{daemon=\"forecaster\"}",
              "netweather_proxy_cluster_hosts{daemon=\"proxy\"}",
              "netweather_sensor_spool_pending_measurements{daemon=\"sensor\"}")) {
        assertTrue(body.contains(gauge + " "), gauge + " missing:\n" + body);
      }
      assertTrue(body.contains("jvm_memory_used_bytes"), "JVM metrics:\n" + body);

      Process lint =
          new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
      lint.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
      lint.getOutputStream().close();
      String lintOut = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(lint.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, lint.exitValue(), "promtool check metrics:\n" + lintOut);

      int web = DaemonProcesses.freePort();
      Path config = dir.resolve("prometheus.yml");
      Files.writeString(
          config,
          String.join(
              "\n",
              "global:",
              "  scrape_interval: 1s",
              "scrape_configs:",
              "  - job_name: netweather",
              "    static_configs:",
              "      - targets: ['127.0.0.1:" + metrics + "']",
              ""));
      Process prometheus =
          new ProcessBuilder(
                  "prometheus",
                  "--config.file=" + config,
                  "--storage.tsdb.path=" + dir.resolve("tsdb"),
                  "--web.listen-address=127.0.0.1:" + web)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("logs/prometheus.log").toFile())
              .start();
      try {
        String query =
            "http://127.0.0.1:"
                + web
                + "/api/v1/query?query="
                + URLEncoder.encode(
                    "sum(" + APPENDS.replace("_total{", "_total{job=\"netweather\",") + ")",
                    StandardCharsets.UTF_8);
        await(
            "Prometheus scraped the appends",
            () -> {
              try {
                return sample(get(query), ",\"([0-9.e+]+)\"\\]") >= appends;
              } catch (IOException | InterruptedException | RuntimeException e) {
                return false;
              }
            },
            procs);
        String up =
            get(
                "http://127.0.0.1:"
                    + web
                    + "/api/v1/query?query="
                    + URLEncoder.encode("up{job=\"netweather\"}", StandardCharsets.UTF_8));
        assertTrue(up.contains(",\"1\"]"), "target up:\n" + up);
      } finally {
        prometheus.destroy();
        prometheus.waitFor(20, TimeUnit.SECONDS);
      }
    }
  }

  /** The number the first match of {@code regex} captures, NaN if none matches. */
  private static double sample(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }

  private static String get(String url) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException(url + ": HTTP " + r.statusCode() + " " + r.body());
    }
    return r.body();
  }

  private static boolean onPath(String tool) throws Exception {
    Process p = new ProcessBuilder("sh", "-c", "command -v " + tool).start();
    return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
  }

  private static void await(String what, BooleanSupplier condition, DaemonProcesses procs)
      throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(
            "timed out waiting for " + what + "\nnws up log:\n" + procs.log("up"));
      }
      Thread.sleep(200);
    }
  }
}
