package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Measurement;
import org.netweather.cli.ErrorHandler;
import org.netweather.client.NetWeatherClient;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import picocli.CommandLine;

/** {@code nws series delete} is a dry run unless told {@code --force}. */
class SeriesDeleteCommandTest {
  @TempDir Path dir;

  @Test
  void delete_withoutForce_listsAndDeletesNothing_withForce_deletes() throws Exception {
    NameserverProperties nsp =
        NameserverProperties.defaults()
            .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
            .with(NameserverProperties.HOST, "localhost")
            .with(NameserverProperties.METRICS_PORT, -1);
    try (NameserverServer ns = NameserverServer.start(nsp, NettyServerBuilder.forPort(0))) {
      String target = "localhost:" + ns.getPort();
      MemoryHostProperties mp =
          MemoryHostProperties.defaults()
              .with(MemoryHostProperties.DATA_DIR, dir.resolve("mem").toString())
              .with(MemoryHostProperties.HOST, "localhost")
              .with(MemoryHostProperties.NAMESERVER, target)
              .with(MemoryHostProperties.METRICS_PORT, -1);
      try (MemoryHostServer memory = MemoryHostServer.start(mp, NettyServerBuilder.forPort(0));
          NetWeatherClient client = NetWeatherClient.forAddress(target).build()) {
        long deadline = System.currentTimeMillis() + 10_000;
        while (client.search("(kind=memory)").isEmpty()) {
          assertTrue(System.currentTimeMillis() < deadline, "memory-host never registered");
          Thread.sleep(50);
        }
        Measurement m =
            Measurement.newBuilder()
                .setTimestampMs(System.currentTimeMillis() - 1_000)
                .setValue(1)
                .build();
        for (int i = 0; i < 12; i++) {
          client.put(String.format("user.x:h%02d", i), List.of(m));
        }

        StringWriter dry = new StringWriter();
        assertEquals(0, run(dry, "--nameserver", target, "*"));
        assertEquals(12, memory.store().seriesCount(), dry.toString());
        List<String> lines = dry.toString().lines().toList();
        assertEquals("user.x:h00", lines.get(0));
        assertEquals("user.x:h09", lines.get(SeriesDeleteCommand.SHOWN - 1));
        assertTrue(lines.get(SeriesDeleteCommand.SHOWN).startsWith("... and 2 more on "));
        assertEquals(
            "dry run: would delete 12 series; nothing deleted (add --force to delete them)",
            lines.get(lines.size() - 1));

        StringWriter forced = new StringWriter();
        assertEquals(0, run(forced, "--nameserver", target, "--force", "user.x:h0*"));
        assertEquals(2, memory.store().seriesCount(), forced.toString());
        assertTrue(forced.toString().endsWith("deleted 10 series\n"), forced.toString());
      }
    }
  }

  private static int run(StringWriter out, String... args) {
    StringWriter err = new StringWriter();
    CommandLine cmd =
        new CommandLine(new SeriesDeleteCommand()).setExecutionExceptionHandler(new ErrorHandler());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    int code = cmd.execute(args);
    assertEquals("", err.toString());
    return code;
  }
}
