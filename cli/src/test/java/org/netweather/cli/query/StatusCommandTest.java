package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.cli.ErrorHandler;
import org.netweather.client.NetWeatherClient;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;
import org.netweather.runtime.Channels;
import org.netweather.runtime.metrics.MetricsEndpoint;
import org.netweather.sensor.daemon.SensorProperties;
import org.netweather.sensor.daemon.SensorServer;
import org.netweather.testing.Poll;
import picocli.CommandLine;

/**
 * {@code nws status} as a health check, against real daemons on loopback: 0 while every daemon
 * serves; once a memory-host is killed (it stays registered), a proxy stopped (it unregisters) and
 * a clique names a host without a sensor, 3, with each of them in the JSON and why.
 */
class StatusCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int status(String target, String... more) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    CommandLine cmd = new CommandLine(new StatusCommand());
    cmd.setExecutionExceptionHandler(new ErrorHandler());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    List<String> args = new ArrayList<>(List.of("--nameserver", target));
    args.addAll(List.of(more));
    return cmd.execute(args.toArray(String[]::new));
  }

  private Map<String, JsonNode> daemons() throws Exception {
    Map<String, JsonNode> byName = new HashMap<>();
    for (JsonNode d : new ObjectMapper().readTree(out.toString()).get("daemons")) {
      byName.put(d.get("name").asText(), d);
    }
    return byName;
  }

  @Test
  void killedAndStoppedDaemons_andCliqueHostsWithoutSensors_makeStatusFail() throws Exception {
    NameserverProperties nsp =
        NameserverProperties.defaults()
            .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
            .with(NameserverProperties.HOST, "localhost")
            .with(NameserverProperties.METRICS_PORT, -1);
    try (NameserverServer ns = NameserverServer.start(nsp, NettyServerBuilder.forPort(0));
        NetWeatherClient client =
            NetWeatherClient.forAddress("localhost:" + ns.getPort()).build()) {
      String target = "localhost:" + ns.getPort();
      MemoryHostServer memory =
          MemoryHostServer.start(
              MemoryHostProperties.defaults()
                  .with(MemoryHostProperties.DATA_DIR, dir.resolve("mem").toString())
                  .with(MemoryHostProperties.HOST, "localhost")
                  .with(MemoryHostProperties.NAMESERVER, target)
                  .with(MemoryHostProperties.METRICS_PORT, -1),
              NettyServerBuilder.forPort(0));
      ProxyServer proxy =
          ProxyServer.start(
              ProxyProperties.defaults()
                  .with(ProxyProperties.HOST, "localhost")
                  .with(ProxyProperties.CLUSTER, "c1")
                  .with(ProxyProperties.NAMESERVER, target)
                  .with(ProxyProperties.METRICS_PORT, -1),
              NettyServerBuilder.forPort(0),
              Channels::plaintext);
      try {
        assertEquals(
            3,
            Poll.until(() -> client.search("").size(), n -> n == 3, Duration.ofSeconds(30)),
            "the nameserver, memory-host and proxy register");
        assertEquals(StatusCommand.ALL_SERVING, status(target, "--json"), out + "\n" + err);
        Map<String, JsonNode> serving = daemons();
        assertEquals(3, serving.size(), out.toString());
        serving
            .values()
            .forEach(d -> assertEquals("SERVING", d.get("state").asText(), d.toString()));
        assertEquals(0, new ObjectMapper().readTree(out.toString()).get("down").asInt());
      } finally {
        memory.close(); // a memory-host keeps its registration when it stops, as if killed
        proxy.close(); // a proxy unregisters
      }
      client.putClique(
          Clique.newBuilder()
              .setName("lab")
              .setPeriodSeconds(60)
              .addMembers("localhost")
              .addMembers("gamma")
              .build());

      assertEquals(StatusCommand.DAEMON_DOWN, status(target, "--json"), out + "\n" + err);
      Map<String, JsonNode> d = daemons();
      assertEquals("SERVING", d.get("nameserver@localhost").get("state").asText());

      JsonNode mem = d.get("memory@localhost");
      assertEquals("UNREACHABLE", mem.get("state").asText(), mem.toString());
      assertTrue(mem.get("reason").asText().contains("UNAVAILABLE"), mem.toString());
      assertTrue(mem.get("reason").asText().contains(mem.get("address").asText()), mem.toString());

      JsonNode gone = d.get("proxy-c1@localhost");
      assertEquals("MISSING", gone.get("state").asText(), gone.toString());
      assertTrue(gone.get("reason").asText().startsWith("unregistered at "), gone.toString());
      assertTrue(gone.get("last_seen_ms").asLong() > 0, gone.toString());
      assertEquals("proxy", gone.get("kind").asText());

      for (String host : new String[] {"localhost", "gamma"}) {
        JsonNode sensor = d.get("sensor@" + host);
        assertEquals("MISSING", sensor.get("state").asText(), out.toString());
        assertEquals(
            "member of clique lab, but host " + host + " has not registered a sensor",
            sensor.get("reason").asText());
      }
      assertEquals(4, new ObjectMapper().readTree(out.toString()).get("down").asInt());

      assertEquals(StatusCommand.DAEMON_DOWN, status(target), err.toString());
      String table = out.toString();
      assertTrue(
          table
              .lines()
              .anyMatch(l -> l.startsWith("memory@localhost") && l.contains(" UNREACHABLE ")),
          table);
      assertTrue(
          table.lines().anyMatch(l -> l.startsWith("sensor@gamma") && l.contains(" MISSING ")),
          table);
      assertTrue(table.strip().endsWith("4 daemons are not serving"), table);
    }
  }

  /**
   * Daemons that advertise their metrics endpoint show their damage and clock: a memory-host on a
   * table file with a flipped byte shows its damaged series and reads, a sensor whose clock is ten
   * minutes slow shows its offset flagged, the nameserver (started before any endpoint) shows
   * nothing; none of it changes the exit status, and an endpoint that stops answering is shown as
   * unreachable without failing the command.
   */
  @Test
  void advertisedMetrics_showDamageCountsAndClockOffsets() throws Exception {
    NameserverProperties nsp =
        NameserverProperties.defaults()
            .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
            .with(NameserverProperties.HOST, "localhost");
    DamagedStore.make(dir.resolve("mem"));
    try (NameserverServer ns = NameserverServer.start(nsp, NettyServerBuilder.forPort(0));
        NetWeatherClient client =
            NetWeatherClient.forAddress("localhost:" + ns.getPort()).build()) {
      String target = "localhost:" + ns.getPort();
      MetricsEndpoint endpoint = MetricsEndpoint.start("localhost", 0);
      MemoryHostServer memory = null;
      SensorServer sensor = null;
      try {
        memory =
            MemoryHostServer.start(
                MemoryHostProperties.defaults()
                    .with(MemoryHostProperties.DATA_DIR, dir.resolve("mem").toString())
                    .with(MemoryHostProperties.RAW_POINTS, 1_000_000)
                    .with(MemoryHostProperties.HOST, "localhost")
                    .with(MemoryHostProperties.NAMESERVER, target),
                NettyServerBuilder.forPort(0));
        long slowBy = Duration.ofMinutes(10).toMillis();
        sensor =
            SensorServer.start(
                SensorProperties.defaults()
                    .with(SensorProperties.HOST, "localhost")
                    .with(SensorProperties.NAMESERVER, target)
                    .with(SensorProperties.DATA_DIR, dir.resolve("sensor").toString())
                    .with(SensorProperties.PROBE_PORT, 0)
                    .with(SensorProperties.MEMORY_PERIOD_SECONDS, 1)
                    .with(SensorProperties.CPU_PERIOD_SECONDS, 3600)
                    .with(SensorProperties.DELIVERY_INTERVAL_MS, 200L),
                NettyServerBuilder.forPort(0),
                Channels::plaintext,
                () -> System.currentTimeMillis() - slowBy);
        int lost = readEverySeries(memory.getPort());
        assertTrue(lost > 0, "the flipped byte is in chunk data: some series answer DATA_LOSS");
        int damagedSeries = memory.store().damagedSeries();
        assertTrue(damagedSeries >= 1, "the store counts the series it could not read");
        long damagedReads = memory.store().damagedReads();

        assertEquals(
            1,
            Poll.until(() -> sensorClockFlagged(target), n -> n == 1, Duration.ofSeconds(60)),
            "the sensor learns its clock is off from the memory-host's and nameserver's answers");
        assertEquals(StatusCommand.ALL_SERVING, status(target, "--json"), out + "\n" + err);
        Map<String, JsonNode> d = daemons();
        assertEquals(3, d.size(), out.toString());

        JsonNode mem = d.get("memory@localhost").get("metrics");
        // The consolidator reads too, so the counts can only have grown since the reads above.
        assertTrue(mem.get("damaged_series").asInt() >= damagedSeries, mem.toString());
        assertTrue(mem.get("damaged_reads").asLong() >= damagedReads, mem.toString());
        assertEquals(0, mem.get("journal_damaged_records").asInt(), mem.toString());

        JsonNode sen = d.get("sensor@localhost");
        double offset = sen.get("clock_offset_seconds").asDouble();
        assertTrue(offset > 590 && offset < 610, "the site's clock is 600 s ahead: " + sen);
        assertEquals(0, sen.get("metrics").get("spool_dropped").asInt(), sen.toString());

        JsonNode nsRow = d.get("nameserver@localhost");
        assertTrue(nsRow.get("metrics").isNull(), nsRow.toString());
        assertTrue(nsRow.get("metrics_error").isNull(), nsRow.toString());
        assertTrue(nsRow.get("clock_offset_seconds").isNull(), nsRow.toString());

        assertEquals(StatusCommand.ALL_SERVING, status(target), err.toString());
        String table = out.toString();
        assertTrue(
            row(table, "memory@localhost").matches(".* damaged reads \\d+, damaged series \\d+.*"),
            table);
        assertTrue(row(table, "sensor@localhost").contains("clock offset +"), table);
        assertTrue(row(table, "sensor@localhost").contains("(past 30 s)"), table);
        assertTrue(!row(table, "nameserver@localhost").contains("damaged"), table);

        endpoint.close();
        assertEquals(StatusCommand.ALL_SERVING, status(target, "--json"), out + "\n" + err);
        JsonNode unreachable = daemons().get("memory@localhost");
        assertTrue(unreachable.get("metrics").isNull(), unreachable.toString());
        assertTrue(
            unreachable
                .get("metrics_error")
                .asText()
                .matches("metrics unreachable at localhost:\\d+: .+"),
            unreachable.toString());
        assertEquals(StatusCommand.ALL_SERVING, status(target), err.toString());
        assertTrue(
            row(out.toString(), "memory@localhost").contains("metrics unreachable"),
            out.toString());
      } finally {
        if (sensor != null) {
          sensor.close();
        }
        if (memory != null) {
          memory.close();
        }
        endpoint.close();
      }
    }
  }

  /** Reads every damaged store's series in full; returns how many answered DATA_LOSS. */
  private static int readEverySeries(int port) {
    ManagedChannel ch = Channels.plaintext("localhost:" + port);
    try {
      MemoryHostGrpc.MemoryHostBlockingStub stub = MemoryHostGrpc.newBlockingStub(ch);
      int lost = 0;
      for (String name : DamagedStore.SERIES) {
        try {
          assertEquals(
              DamagedStore.POINTS,
              stub.fetch(
                      FetchRequest.newBuilder()
                          .setSeries(name)
                          .setLast(DamagedStore.POINTS)
                          .build())
                  .getPointsCount(),
              name + ": an OK answer holds every point");
        } catch (StatusRuntimeException e) {
          assertEquals(Status.Code.DATA_LOSS, e.getStatus().getCode(), e.toString());
          lost++;
        }
      }
      return lost;
    } finally {
      ch.shutdownNow();
    }
  }

  /** 1 once {@code nws status --json} flags the sensor's clock, else 0. */
  private long sensorClockFlagged(String target) {
    status(target, "--json");
    try {
      JsonNode s = daemons().get("sensor@localhost");
      return s != null && s.get("clock_flagged").asBoolean() ? 1 : 0;
    } catch (Exception e) {
      throw new AssertionError(out.toString(), e);
    }
  }

  private static String row(String table, String name) {
    return table.lines().filter(l -> l.startsWith(name + " ")).findFirst().orElse("");
  }
}
