package org.netweather.cli.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.MemoryHostState;
import org.netweather.api.v1.PlacedShard;
import org.netweather.cli.ErrorHandler;
import org.netweather.client.NetWeatherClient;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.model.shard.Shards;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.sensor.daemon.Delivery;
import org.netweather.sensor.spool.Spool;
import org.netweather.sensor.spool.SpoolOptions;
import org.netweather.testing.Poll;
import picocli.CommandLine;

/**
 * {@code nws placement show|move} against a nameserver and two memory-hosts on a ZooKeeper test
 * server, with a sensor's delivery: after a move, the shard's next measurements reach the new
 * memory-host.
 */
class PlacementCommandTest {
  private static final String SERIES = "cpu.availability:alpha";
  @TempDir Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() throws Exception {
    scheduler.shutdownNow();
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private <T extends AutoCloseable> T keep(T t) {
    open.add(t);
    return t;
  }

  private String nameserver(String registry) throws Exception {
    NameserverServer ns =
        keep(
            NameserverServer.start(
                NameserverProperties.defaults()
                    .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
                    .with(NameserverProperties.HOST, "localhost")
                    .with(NameserverProperties.METRICS_PORT, -1)
                    .with(NameserverProperties.REGISTRY, registry),
                NettyServerBuilder.forPort(0)));
    return "localhost:" + ns.getPort();
  }

  private MemoryHostServer memoryHost(String name, String nameserver, String registry)
      throws Exception {
    return keep(
        MemoryHostServer.start(
            MemoryHostProperties.defaults()
                .with(MemoryHostProperties.DATA_DIR, dir.resolve(name).toString())
                .with(MemoryHostProperties.NAME, name)
                .with(MemoryHostProperties.HOST, "localhost")
                .with(MemoryHostProperties.NAMESERVER, nameserver)
                .with(MemoryHostProperties.METRICS_PORT, -1)
                .with(MemoryHostProperties.REGISTRY, registry),
            NettyServerBuilder.forPort(0)));
  }

  @Test
  void move_sendsTheShardsNextMeasurementsToTheNewMemoryHost() throws Exception {
    TestingServer zk = keep(new TestingServer());
    String registry = "zookeeper://" + zk.getConnectString() + "/site";
    String target = nameserver(registry);
    MemoryHostServer m1 = memoryHost("memory@m1", target, registry);
    MemoryHostServer m2 = memoryHost("memory@m2", target, registry);
    NetWeatherClient client = keep(NetWeatherClient.forAddress(target).build());
    long live =
        Poll.until(
            () ->
                client.registry().placement(List.of(0), "").getMemoryHostsList().stream()
                    .filter(h -> h.getState() == MemoryHostState.MEMORY_HOST_STATE_LIVE)
                    .count(),
            n -> n == 2,
            Duration.ofSeconds(20));
    assertEquals(2, live);

    int shard = Shards.of(SERIES);
    AtomicLong skew = new AtomicLong();
    Spool spool = keep(Spool.open(dir.resolve("spool"), SpoolOptions.defaults()));
    Delivery delivery =
        keep(new Delivery(spool, client, scheduler, () -> System.currentTimeMillis() + skew.get()));
    spool.append(SERIES, System.currentTimeMillis() - 2_000, 0.5);
    delivery.flush();
    Poll.until(
        () -> m1.store().seriesCount() + m2.store().seriesCount(), n -> n == 1, ofSeconds(20));
    PlacedShard placed = client.registry().placement(List.of(shard), "").getShards(0);
    String from = placed.getMemoryHosts(0);
    MemoryHostServer before = from.equals("memory@m1") ? m1 : m2;
    MemoryHostServer after = before == m1 ? m2 : m1;
    String to = before == m1 ? "memory@m2" : "memory@m1";
    assertEquals(1, before.store().seriesCount(), "delivered to " + from);

    StringWriter out = new StringWriter();
    assertEquals(
        0,
        run(
            out,
            new StringWriter(),
            "move",
            "--nameserver",
            target,
            "--shard",
            "" + shard,
            "--to",
            to));
    assertEquals("moved 1 shard to " + to + ": " + shard + "\n", out.toString());

    // The sensor asks again once the answer's recheck time has passed, and follows the move.
    spool.append(SERIES, System.currentTimeMillis() - 1_000, 0.7);
    skew.addAndGet(61_000);
    delivery.flush();
    assertEquals(
        1, Poll.until(() -> after.store().seriesCount(), n -> n == 1, Duration.ofSeconds(20)));
    assertEquals(0, Poll.until(spool::pending, n -> n == 0, Duration.ofSeconds(20)));

    StringWriter shown = new StringWriter();
    assertEquals(0, run(shown, new StringWriter(), "show", "--nameserver", target));
    List<String> lines = shown.toString().lines().toList();
    assertTrue(lines.get(0).startsWith("MEMORY-HOST"), shown.toString());
    assertTrue(lines.get(1).startsWith("memory@m1") && lines.get(1).contains("live"), lines.get(1));
    assertTrue(lines.get(2).startsWith("memory@m2") && lines.get(2).contains("live"), lines.get(2));

    StringWriter one = new StringWriter();
    assertEquals(
        0, run(one, new StringWriter(), "show", "--nameserver", target, "--shard", "" + shard));
    assertEquals(
        List.of("SHARD  MEMORY-HOST  STATE", String.format("%-7s%-13slive", shard, to)),
        one.toString().lines().map(String::stripTrailing).toList(),
        one.toString());
    StringWriter mine = new StringWriter();
    assertEquals(0, run(mine, new StringWriter(), "show", "--nameserver", target, "--host", to));
    String last = mine.toString().lines().reduce((a, b) -> b).orElseThrow();
    assertTrue(last.startsWith("shards of " + to + ": "), mine.toString());
    assertTrue(
        List.of(last.substring(last.indexOf(": ") + 2).split(",")).stream()
            .anyMatch(r -> covers(r, shard)),
        last);
    StringWriter json = new StringWriter();
    assertEquals(0, run(json, new StringWriter(), "show", "--nameserver", target, "--json"));
    assertTrue(json.toString().contains("\"replace_after_ms\": \"3600000\""), json.toString());
    StringWriter again = new StringWriter();
    assertEquals(
        0,
        run(
            again,
            new StringWriter(),
            "move",
            "--nameserver",
            target,
            "--shard",
            "" + shard,
            "--to",
            to));
    assertEquals("nothing moved: already on " + to + "\n", again.toString());

    StringWriter err = new StringWriter();
    assertEquals(
        ErrorHandler.USAGE,
        run(new StringWriter(), err, "show", "--nameserver", target, "--shard", "5000"));
    assertTrue(err.toString().contains("shard 5000 is out of range"), err.toString());
    StringWriter unknown = new StringWriter();
    assertEquals(
        ErrorHandler.USAGE,
        run(
            new StringWriter(),
            unknown,
            "move",
            "--nameserver",
            target,
            "--shard",
            "1",
            "--to",
            "memory@nowhere"));
    assertTrue(unknown.toString().contains("'memory@nowhere' is not live"), unknown.toString());
  }

  @Test
  void show_onTheLocalRegistry_saysPlacementNeedsZooKeeper_exit2() throws Exception {
    String target = nameserver("local");
    StringWriter err = new StringWriter();
    assertEquals(ErrorHandler.USAGE, run(new StringWriter(), err, "show", "--nameserver", target));
    assertTrue(
        err.toString().startsWith("nws placement show: placement is a feature of the ZooKeeper"),
        err.toString());
  }

  /** Whether a range {@code 3-7} or a single {@code 5} of {@code nws placement} holds {@code n}. */
  private static boolean covers(String range, int n) {
    String[] ends = range.split("-");
    int from = Integer.parseInt(ends[0]);
    int to = Integer.parseInt(ends[ends.length - 1]);
    return from <= n && n <= to;
  }

  private static Duration ofSeconds(long s) {
    return Duration.ofSeconds(s);
  }

  private static int run(StringWriter out, StringWriter err, String... args) {
    CommandLine cmd =
        new CommandLine(new PlacementCommand()).setExecutionExceptionHandler(new ErrorHandler());
    cmd.setCommandName("nws placement");
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    return cmd.execute(args);
  }
}
