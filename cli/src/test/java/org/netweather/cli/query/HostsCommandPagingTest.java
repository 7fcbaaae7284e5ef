package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Registration;
import org.netweather.cli.ErrorHandler;
import org.netweather.nameserver.Nameserver;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;
import picocli.CommandLine;

/**
 * {@code nws hosts} and {@code nws search} over 3 000 registrations of 7 x 1 000-character
 * attributes each, near the 8 KiB a registration may hold (about 21 MB, five times gRPC's message
 * limit): the listing arrives whole, page by page.
 */
class HostsCommandPagingTest {
  @TempDir Path dir;

  /** Keeps the first cell of every line; the table is too large to hold as text. */
  private static final class FirstColumn extends Writer {
    final List<String> names = new ArrayList<>();
    private final StringBuilder line = new StringBuilder();
    private boolean inFirst = true;

    @Override
    public void write(char[] buf, int off, int len) {
      for (int i = off; i < off + len; i++) {
        char c = buf[i];
        if (c == '\n') {
          names.add(line.toString());
          line.setLength(0);
          inFirst = true;
        } else if (inFirst && c == ' ') {
          inFirst = false;
        } else if (inFirst) {
          line.append(c);
        }
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  @Test
  void hostsAndSearch_list3000LargeRegistrations() throws Exception {
    NameserverProperties p =
        NameserverProperties.defaults()
            .with(NameserverProperties.PORT, 0)
            .with(NameserverProperties.METRICS_PORT, -1)
            .with(NameserverProperties.DATA_DIR, dir.toString());
    try (NameserverServer server = NameserverServer.start(p, NettyServerBuilder.forPort(0))) {
      Nameserver ns = server.nameserver();
      String value = "v".repeat(1000);
      for (int i = 0; i < 3_000; i++) {
        Registration.Builder r =
            Registration.newBuilder()
                .setName(String.format("sensor@h%04d", i))
                .setKind("sensor")
                .setAddress("localhost:1");
        for (int a = 0; a < 7; a++) {
          r.putAttributes("attribute" + a, value);
        }
        ns.register(r.build(), 3_600);
      }
      String target = "localhost:" + server.getPort();

      FirstColumn hosts = new FirstColumn();
      assertEquals(0, run(new HostsCommand(), hosts, "--nameserver", target));
      List<String> sensors = hosts.names.stream().filter(n -> n.startsWith("sensor@")).toList();
      assertEquals(3_000, sensors.size());
      assertEquals("sensor@h0000", sensors.get(0));
      assertEquals("sensor@h2999", sensors.get(2_999));
      assertEquals(3_000, sensors.stream().distinct().count());

      FirstColumn search = new FirstColumn();
      assertEquals(
          0,
          run(
              new HostsCommand.SearchCommand(),
              search,
              "--nameserver",
              target,
              "(&(kind=sensor)(name=sensor@h1*))"));
      assertEquals(1_000, search.names.stream().filter(n -> n.startsWith("sensor@")).count());
    }
  }

  private static int run(Object command, Writer out, String... args) {
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(command).setExecutionExceptionHandler(new ErrorHandler());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    int code = cmd.execute(args);
    assertEquals("", err.toString());
    return code;
  }
}
