package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.netweather.cli.ErrorHandler;
import org.netweather.client.NetWeatherClient;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.proxy.ProxyProperties;
import org.netweather.proxy.ProxyServer;
import org.netweather.runtime.Channels;
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
}
