package org.netweather.cli.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netweather.cli.ErrorHandler;
import org.netweather.scheduler.Examples;
import picocli.CommandLine;

/** {@code nws schedule pipeline|broadcast} and {@code nws cluster} end to end. */
class PluginCommandsTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(Object command, String... args) {
    CommandLine cmd = new CommandLine(command).setExecutionExceptionHandler(new ErrorHandler());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    return cmd.execute(args);
  }

  private Struct json() throws Exception {
    Struct.Builder b = Struct.newBuilder();
    JsonFormat.parser().merge(out.toString(), b);
    return b.build();
  }

  private static String example(String name) {
    return Examples.path(name).toString();
  }

  @Test
  void pipeline_d4Bfc_keepsMostExtractCopiesOffTheWan() throws Exception {
    assertEquals(
        0,
        run(
            new ScheduleCommand(),
            "pipeline",
            "--filters",
            example("pipeline/d4.json"),
            "--snapshot",
            example("pipeline/d4-snapshot.json"),
            "--algorithm",
            "bfc",
            "--simulate",
            "--json"),
        err.toString());
    Struct e = json().getFieldsOrThrow("filters").getListValue().getValues(1).getStructValue();
    List<String> hosts =
        e.getFieldsOrThrow("hosts").getListValue().getValuesList().stream()
            .map(Value::getStringValue)
            .toList();
    assertEquals(1, hosts.stream().filter(h -> h.startsWith("d")).count(), hosts.toString());
  }

  @Test
  void pipeline_d4Fcp_estimateFarFromSimulation() throws Exception {
    assertEquals(
        0,
        run(
            new ScheduleCommand(),
            "pipeline",
            "--filters",
            example("pipeline/d4.json"),
            "--snapshot",
            example("pipeline/d4-snapshot.json"),
            "--algorithm",
            "fcp",
            "--simulate",
            "--json"),
        err.toString());
    Struct s = json();
    double estimate = s.getFieldsOrThrow("estimatedSeconds").getNumberValue();
    double simulated =
        s.getFieldsOrThrow("simulation")
            .getStructValue()
            .getFieldsOrThrow("seconds")
            .getNumberValue();
    assertTrue(simulated > 3.5 * estimate, estimate + " vs " + simulated);
  }

  @Test
  void pipeline_badAlgorithm_exitsTwoWithOneLine() {
    assertEquals(
        2,
        run(
            new ScheduleCommand(),
            "pipeline",
            "--filters",
            example("pipeline/d4.json"),
            "--snapshot",
            example("pipeline/d4-snapshot.json"),
            "--algorithm",
            "heft"));
    assertTrue(err.toString().contains("expected fcp or bfc"), err.toString());
  }

  @Test
  void cluster_table2Csv_printsSixClustersAsJson() throws Exception {
    assertEquals(
        0,
        run(new ClusterCommand(), "--latency-matrix", example("cluster/table2-78.csv"), "--json"),
        err.toString());
    List<Integer> sizes =
        json().getFieldsOrThrow("clusters").getListValue().getValuesList().stream()
            .map(v -> v.getListValue().getValuesCount())
            .toList();
    assertEquals(List.of(20, 11, 7, 1, 20, 19), sizes);
  }

  @Test
  void cluster_negativeBound_exitsTwo() {
    assertEquals(
        2,
        run(
            new ClusterCommand(),
            "--latency-matrix",
            example("cluster/table2-78.csv"),
            "--bound",
            "-1"));
  }

  @Test
  void swapStatus_noDispatcher_oneLineNamingItExitOne() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    assertEquals(1, run(new SwapCommand(), "status", "--dispatcher-port", "" + port));
    assertTrue(
        err.toString()
            .startsWith(
                "nws swap status: cannot reach the swap dispatcher at "
                    + "localhost:"
                    + port
                    + " (Connection refused)"),
        err.toString());
    assertEquals(1, err.toString().strip().lines().count(), err.toString());
  }

  @Test
  void broadcast_table2Snapshot_beatsTheFlatBinomial() throws Exception {
    assertEquals(
        0,
        run(
            new ScheduleCommand(),
            "broadcast",
            "--snapshot",
            example("cluster/table2-snapshot.json"),
            "--size",
            "8192",
            "--json"),
        err.toString());
    Struct s = json();
    assertEquals(6, s.getFieldsOrThrow("clusters").getListValue().getValuesCount());
    assertEquals(
        5,
        s.getFieldsOrThrow("interCluster")
            .getStructValue()
            .getFieldsOrThrow("sends")
            .getListValue()
            .getValuesCount());
    double hier = s.getFieldsOrThrow("predictedSeconds").getNumberValue();
    double flat =
        s.getFieldsOrThrow("flatBinomialSeconds")
            .getStructValue()
            .getFieldsOrThrow("randomRanks")
            .getNumberValue();
    assertEquals(9685e-6, hier, 2e-6);
    assertTrue(flat > 2 * hier);
  }
}
