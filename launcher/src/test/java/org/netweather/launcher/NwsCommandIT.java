package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.FetchResponse;
import org.netweather.api.v1.ListSeriesResponse;
import org.netweather.api.v1.SearchResponse;
import org.netweather.cli.NwsCommand;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import org.netweather.sensor.daemon.SkillSet;
import picocli.CommandLine;

/** The nws query commands against real daemons on loopback. */
class NwsCommandIT {
  @TempDir Path dir;
  private NameserverServer ns;
  private MemoryHostServer memory;
  private String nameserver;

  @BeforeEach
  void setUp() throws Exception {
    NameserverProperties nsp =
        NameserverProperties.defaults()
            .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
            .with(NameserverProperties.HOST, "localhost");
    ns = NameserverServer.start(nsp, NettyServerBuilder.forPort(0));
    nameserver = "localhost:" + ns.getPort();
    MemoryHostProperties mp =
        MemoryHostProperties.defaults()
            .with(MemoryHostProperties.DATA_DIR, dir.resolve("mem").toString())
            .with(MemoryHostProperties.HOST, "localhost")
            .with(MemoryHostProperties.NAMESERVER, nameserver);
    memory = MemoryHostServer.start(mp, NettyServerBuilder.forPort(0));
    long deadline = System.currentTimeMillis() + 10_000;
    while (run("search", "(kind=memory)", "--json").out.indexOf("memory@") < 0) {
      assertTrue(System.currentTimeMillis() < deadline, "memory-host never registered");
      Thread.sleep(50);
    }
  }

  @AfterEach
  void tearDown() {
    memory.close();
    ns.close();
  }

  private record Result(int exit, String out, String err) {}

  private Result run(String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--nameserver";
    all[args.length + 1] = nameserver;
    return runOffline(all);
  }

  /** Without --nameserver, for commands that take none. */
  private static Result runOffline(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = NwsCommand.commandLine();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int exit = cmd.execute(args);
    return new Result(exit, out.toString(), err.toString());
  }

  /** bin/nws in its own process: what main() adds, such as the exit status and logging. */
  private static Result runProcess(String... args) throws Exception {
    Path home = Path.of(System.getProperty("netweather.home", "..")).toAbsolutePath();
    List<String> cmd = new ArrayList<>(List.of(home.resolve("bin/nws").toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).start();
    p.getOutputStream().close();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    String err = read(p.getErrorStream());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "bin/nws did not finish");
    return new Result(p.exitValue(), out.join(), err);
  }

  private static String read(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void putThenHistory_json_roundTrips() throws Exception {
    Result put = run("put", "cpu.availability:alpha", "0.5", "--at", "1m", "--json");
    assertEquals(0, put.exit, put.err);
    AppendResponse.Builder ack = AppendResponse.newBuilder();
    JsonFormat.parser().merge(put.out, ack);
    assertEquals(1, ack.getStored());

    Result history = run("history", "cpu.availability:alpha", "--json");
    assertEquals(0, history.exit, history.err);
    FetchResponse.Builder fetched = FetchResponse.newBuilder();
    JsonFormat.parser().merge(history.out, fetched);
    assertEquals(1, fetched.getPointsCount());
    assertEquals(0.5, fetched.getPoints(0).getValue());

    Result since = run("history", "cpu.availability:alpha", "--since", "2m");
    assertEquals(0, since.exit, since.err);
    assertTrue(since.out.contains("0.5"), since.out);
  }

  @Test
  void hostsAndSeries_json_areDocuments() throws Exception {
    run("put", "tcp.bandwidth:alpha->beta", "940");
    SearchResponse.Builder hosts = SearchResponse.newBuilder();
    JsonFormat.parser().merge(run("hosts", "--json").out, hosts);
    assertEquals(2, hosts.getRegistrationsCount());
    ListSeriesResponse.Builder series = ListSeriesResponse.newBuilder();
    Result r = run("series", "--json");
    JsonFormat.parser().merge(r.out, series);
    assertEquals("Mbit/s", series.getSeries(0).getUnit());
    assertEquals(940, series.getSeries(0).getLastValue());
  }

  @Test
  void badInput_oneLineMessageAndNonZeroExit() {
    assertFails(2, "has no ':'", run("put", "nocolon", "1"));
    assertFails(2, "is not a decimal number", run("put", "cpu.availability:a", "abc"));
    assertFails(2, "must be in [0, 1]", run("put", "cpu.availability:a", "1.5"));
    assertFails(2, "is not a decimal number", run("put", "user.x:a", "NaN"));
    assertFails(2, "is not a decimal number", run("put", "user.x:a", "0x1.8p-1"));
    assertFails(
        2,
        "in the future",
        run("put", "user.x:a", "1", "--at", Long.toString(System.currentTimeMillis() + 3_600_000)));
    assertFails(2, "is not a time", run("put", "user.x:a", "1", "--at", "yesterday"));
    assertFails(2, "expected ')'", run("search", "(&(kind=memory)"));
    assertFails(1, "NOT_FOUND", run("history", "cpu.availability:nowhere"));
    assertFails(2, "--last", run("history", "cpu.availability:a", "--last", "0"));
    assertFails(2, "Unknown option", run("history", "cpu.availability:a", "--bogus"));
    // Nothing above was stored.
    assertTrue(run("series", "--json").out.contains("\"series\": []"));
  }

  @Test
  void unreachableNameserver_saysSo() {
    nameserver = "localhost:1";
    assertFails(1, "cannot reach NetWeather", run("hosts"));
  }

  @Test
  void cliques_errorsNameTheSubcommand_deleteOfNoneFails_deleteTakesJson() throws Exception {
    assertFails(
        2,
        "nws clique create: --period 'soon' is not a duration",
        run("clique", "create", "lab", "--members", "a,b", "--period", "soon"));
    assertFails(1, "nws clique delete: no clique lab", run("clique", "delete", "lab"));
    assertEquals(0, run("clique", "create", "lab", "--members", "a,b").exit);
    Result deleted = run("clique", "delete", "lab", "--json");
    assertEquals(0, deleted.exit, deleted.err);
    Struct.Builder doc = Struct.newBuilder();
    JsonFormat.parser().merge(deleted.out, doc);
    assertEquals("lab", doc.getFieldsOrThrow("deleted").getStringValue());
    assertFails(1, "nws clique delete: no clique lab", run("clique", "delete", "lab"));
  }

  @Test
  void usageErrors_nameTheFullCommand() {
    Result r = run("clique", "delete");
    assertFails(2, "nws clique delete: Missing required parameter", r);
    assertTrue(r.err.contains("(nws clique delete --help for usage)"), r.err);
    assertEquals(2, runOffline("clique").exit);
    assertFails(
        2,
        "nws schedule: unknown scheduler 'nosuch'; known: broadcast, cluster, "
            + "jacobi, pipeline, swap, tree",
        runOffline("schedule", "nosuch"));
  }

  @Test
  void forecastAndEvaluate_badFiles_oneLineExitTwo() throws Exception {
    assertFails(
        2,
        "nws forecast: /nonexistent.csv: no such file",
        runOffline("forecast", "--file", "/nonexistent.csv"));
    assertFails(2, "is a directory", runOffline("forecast", "--file", dir.toString()));
    Path trace = Files.writeString(dir.resolve("t.csv"), "timestamp,value\n1,0.5\n");
    assertFails(
        2,
        "nws evaluate: " + trace + " is not a directory",
        runOffline("evaluate", trace.toString()));
    assertFails(2, "no such directory", runOffline("evaluate", dir.resolve("none").toString()));
  }

  @Test
  void probe_helpListsEverySkill_badPeersSaySoInPlainWords() throws Exception {
    Result help = runOffline("probe", "--help");
    try (SkillSet skills = SkillSet.create()) {
      for (String skill : skills.all().keySet()) {
        assertTrue(help.out.contains(skill), skill + " missing from\n" + help.out);
      }
    }
    assertFails(
        2,
        "nws probe: --peer nohost.invalid:8061: unknown host nohost.invalid",
        runOffline("probe", "tcp.bandwidth", "--peer", "nohost.invalid:8061"));
    Result refused =
        runOffline("probe", "tcp.latency", "--peer", "localhost:" + DaemonProcesses.freePort());
    assertFails(1, "cannot reach a probe listener at localhost:", refused);
    assertTrue(!refused.err.contains("Exception"), refused.err);
  }

  @Test
  @Timeout(60)
  void daemon_portInUse_saysWhichPortAndOption() throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      int port = taken.getLocalPort();
      assertFails(
          1,
          "nws nameserver: port "
              + port
              + " is already in use (by another nws?); "
              + "--port picks another",
          runOffline(
              "nameserver",
              "--port",
              "" + port,
              "--data-dir",
              dir.resolve("ns2").toString(),
              "--metrics-port",
              "0"));
    }
  }

  @Test
  @Timeout(60)
  void daemon_metricsPortInUse_saysSoAndStartsNothing() throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      int port = taken.getLocalPort();
      int grpc = DaemonProcesses.freePort();
      assertFails(
          1,
          "nws nameserver: port "
              + port
              + " for metrics is already in use (by "
              + "another nws?); --metrics-port picks another, -1 serves none",
          runOffline(
              "nameserver",
              "--port",
              "" + grpc,
              "--metrics-port",
              "" + port,
              "--data-dir",
              dir.resolve("ns3").toString()));
      // The gRPC port was never taken: nothing was left running.
      try (ServerSocket free = new ServerSocket(grpc)) {
        assertTrue(free.isBound());
      }
    }
  }

  @Test
  void binNws_noArguments_usageExitTwo() throws Exception {
    Result r = runProcess();
    assertEquals(2, r.exit);
    assertTrue(r.err.startsWith("Usage: nws"), r.err);
  }

  @Test
  void binNws_unknownHost_oneLineWithoutGrpcLogs() throws Exception {
    Result r = runProcess("hosts", "--nameserver", "nohost.invalid:8090");
    assertFails(1, "nws hosts: UNAVAILABLE: cannot reach NetWeather", r);
    assertTrue(
        r.err.contains("check --nameserver"),
        "an address to fix, not a daemon to " + "start: " + r.err);
  }

  @Test
  void binNws_addressNotHostPort_usageErrorNamingIt() throws Exception {
    Result r = runProcess("hosts", "--nameserver", "garbage");
    assertFails(2, "--nameserver 'garbage'", r);
    assertTrue(r.err.contains("not host:port"), r.err);
  }

  private static void assertFails(int exit, String fragment, Result r) {
    assertEquals(exit, r.exit, r.err + r.out);
    assertTrue(r.err.contains(fragment), r.err);
    assertEquals(1, r.err.strip().lines().filter(l -> !l.startsWith("(nws ")).count(), r.err);
    assertTrue(!r.err.contains("\tat "), "stack trace in: " + r.err);
  }
}
