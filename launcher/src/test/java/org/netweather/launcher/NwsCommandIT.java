package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.JsonFormat;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.FetchResponse;
import org.netweather.api.v1.ListSeriesResponse;
import org.netweather.api.v1.SearchResponse;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import picocli.CommandLine;

/** The nws query commands against real daemons on loopback. */
class NwsCommandIT {
  @TempDir Path dir;
  private NameserverServer ns;
  private MemoryHostServer memory;
  private String nameserver;

  @BeforeEach
  void setUp() throws Exception {
    NameserverProperties nsp = new NameserverProperties();
    nsp.dataDir = dir.resolve("ns").toString();
    nsp.host = "localhost";
    ns = NameserverServer.start(nsp, NettyServerBuilder.forPort(0));
    nameserver = "localhost:" + ns.getPort();
    MemoryHostProperties mp = new MemoryHostProperties();
    mp.dataDir = dir.resolve("mem").toString();
    mp.host = "localhost";
    mp.nameserver = nameserver;
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
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = Nws.commandLine();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--nameserver";
    all[args.length + 1] = nameserver;
    int exit = cmd.execute(all);
    return new Result(exit, out.toString(), err.toString());
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
    assertFails(2, "is not a number", run("put", "cpu.availability:a", "abc"));
    assertFails(2, "must be in [0, 1]", run("put", "cpu.availability:a", "1.5"));
    assertFails(2, "must be finite", run("put", "user.x:a", "NaN"));
    assertFails(2, "in the future", run("put", "user.x:a", "1", "--at",
        Long.toString(System.currentTimeMillis() + 3_600_000)));
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

  private static void assertFails(int exit, String fragment, Result r) {
    assertEquals(exit, r.exit, r.err + r.out);
    assertTrue(r.err.contains(fragment), r.err);
    assertEquals(1, r.err.strip().lines().filter(l -> !l.startsWith("(nws ")).count(), r.err);
    assertTrue(!r.err.contains("\tat "), "stack trace in: " + r.err);
  }
}
