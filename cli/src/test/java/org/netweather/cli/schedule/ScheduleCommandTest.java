package org.netweather.cli.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.cli.ErrorHandler;
import org.netweather.scheduler.Examples;
import picocli.CommandLine;

/** {@code nws schedule} end to end, as the launcher will run it, with captured output. */
class ScheduleCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cmd =
        new CommandLine(new ScheduleCommand()).setExecutionExceptionHandler(new ErrorHandler());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    return cmd.execute(args);
  }

  private Struct json() throws Exception {
    Struct.Builder b = Struct.newBuilder();
    JsonFormat.parser().merge(out.toString(), b);
    return b.build();
  }

  private static List<String> strings(Struct s, String key) {
    return s.getFieldsOrThrow(key).getListValue().getValuesList().stream()
        .map(Value::getStringValue)
        .toList();
  }

  private static String example(String name) {
    return Examples.path(name).toString();
  }

  @Test
  void schedule_withoutPlugin_listsThePlugins() {
    assertEquals(2, run());
    assertTrue(
        err.toString().contains("broadcast, cluster, jacobi, pipeline, swap, tree"),
        err.toString());
  }

  @Test
  void schedule_unknownPlugin_namesTheKnownOnesExitTwo() {
    assertEquals(2, run("nosuch", "--size", "10"));
    assertEquals(
        "nws schedule: unknown scheduler 'nosuch'; known: broadcast, cluster, jacobi, "
            + "pipeline, swap, tree",
        err.toString().strip());
  }

  @Test
  void jacobi_j6Json_choosesB1AndB2At0_4128() throws Exception {
    assertEquals(
        0,
        run("jacobi", "--snapshot", example("jacobi/j6.json"), "--size", "1000", "--json"),
        err.toString());
    Struct s = json();
    assertEquals(List.of("B1", "B2"), strings(s, "hosts"));
    assertEquals(
        List.of(500.0, 500.0),
        s.getFieldsOrThrow("widths").getListValue().getValuesList().stream()
            .map(Value::getNumberValue)
            .toList());
    assertEquals(0.4128, s.getFieldsOrThrow("predictedSeconds").getNumberValue(), 1e-12);
  }

  @Test
  void jacobi_j7At6000_findsTheCappedSchedule() throws Exception {
    assertEquals(
        0,
        run("jacobi", "--snapshot", example("jacobi/j7.json"), "--size", "6000", "--json"),
        err.toString());
    Struct s = json();
    assertEquals(8, strings(s, "hosts").size());
    double sum =
        s.getFieldsOrThrow("widths").getListValue().getValuesList().stream()
            .mapToDouble(Value::getNumberValue)
            .sum();
    assertEquals(6000, sum);
    assertEquals(1.009, s.getFieldsOrThrow("predictedSeconds").getNumberValue(), 1e-3);
  }

  @Test
  void jacobi_j7At6000AsPublished_reportsNoScheduleWithExitOne() {
    assertEquals(1, run("jacobi", "--snapshot", example("jacobi/j7.json"), "--solver", "apples"));
    assertTrue(out.toString().contains("no feasible schedule"), out.toString());
    assertTrue(out.toString().contains("SP1 needs 136.3 MiB, has 128.0 MiB (F2)"));
  }

  @Test
  void jacobi_text_listsStripsAndCandidates() {
    assertEquals(0, run("jacobi", "--snapshot", example("jacobi/j1.json")));
    String text = out.toString();
    assertTrue(text.contains("P1    667    0.667"), text);
    assertTrue(text.contains("predicted iteration time: 0.667 s"), text);
  }

  @Test
  void jacobi_demonstrate_printsPredictedAndMeasured() {
    assertEquals(
        0,
        run(
            "jacobi",
            "--snapshot",
            example("jacobi/j1.json"),
            "--size",
            "200",
            "--demonstrate",
            "10"),
        err.toString());
    assertTrue(out.toString().contains("iteration: predicted"), out.toString());
  }

  @Test
  void jacobi_snapshotAndClusterTogether_usageError() {
    assertEquals(2, run("jacobi", "--snapshot", "x.json", "--cluster", "c"));
    assertTrue(err.toString().contains("mutually exclusive"), err.toString());
  }

  @Test
  void jacobi_noSize_oneLineErrorExitTwo(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("s.json");
    Files.writeString(file, "{\"hosts\": [{\"host\": \"a\"}]}");
    assertEquals(2, run("jacobi", "--snapshot", file.toString()));
    assertTrue(err.toString().startsWith("nws schedule jacobi: "), err.toString());
    assertTrue(err.toString().contains("no problem size"), err.toString());
  }

  @Test
  void jacobi_unknownField_exitTwoNamingIt(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("s.json");
    Files.writeString(file, "{\"hosts\": [{\"host\": \"a\", \"secondsPerPoint\": 1}]}");
    assertEquals(2, run("jacobi", "--snapshot", file.toString(), "--size", "10"));
    assertTrue(err.toString().contains("unknown field hosts[0].secondsPerPoint"), err.toString());
  }

  @Test
  void jacobi_badOrder_exitTwo() {
    assertEquals(2, run("jacobi", "--snapshot", example("jacobi/j6.json"), "--order", "random"));
    assertTrue(err.toString().contains("--order"), err.toString());
  }

  @Test
  void tree_table4At10Mb1Diagonal_excludesEveryChild() throws Exception {
    assertEquals(
        0,
        run(
            "tree",
            "--tree",
            example("tree/table4.json"),
            "--task-mb",
            "10",
            "--task-compute",
            "1",
            "--json"),
        err.toString());
    Struct s = json();
    assertEquals(List.of(), strings(s, "priority"));
    assertEquals(List.of("Lab3", "Lab4", "Lab5", "Lab6", "SB0", "Tenn"), strings(s, "excluded"));
    assertEquals(9.0645, s.getFieldsOrThrow("throughputBound").getNumberValue(), 1e-12);
  }

  @Test
  void tree_table4At2Mb1Diagonal_prioritisesByIrS() throws Exception {
    assertEquals(
        0,
        run(
            "tree",
            "--tree",
            example("tree/table4.json"),
            "--task-mb",
            "2",
            "--task-compute",
            "1",
            "--json",
            "--simulate",
            "200"),
        err.toString());
    Struct s = json();
    assertEquals(List.of("Lab4", "Lab5", "Lab3", "Lab6", "SB0"), strings(s, "priority"));
    assertEquals(List.of("Tenn"), strings(s, "excluded"));
    assertEquals(12.343, s.getFieldsOrThrow("throughputBound").getNumberValue(), 1e-3);
    Struct protocols =
        s.getFieldsOrThrow("simulation")
            .getStructValue()
            .getFieldsOrThrow("protocols")
            .getStructValue();
    assertEquals(7, protocols.getFieldsCount());
    assertEquals(
        1.0,
        protocols
            .getFieldsOrThrow("RootComputes")
            .getStructValue()
            .getFieldsOrThrow("normalised")
            .getNumberValue());
  }

  @Test
  void tree_singlePortText_printsPriorityBoundAndSimulation() {
    assertEquals(
        0,
        run(
            "tree",
            "--tree",
            example("tree/table4.json"),
            "--task-mb",
            "5",
            "--task-compute",
            "1",
            "--port",
            "single",
            "--simulate",
            "100"),
        err.toString());
    String text = out.toString();
    assertTrue(
        text.contains("priority at Lab0 (single-port, largest B_r·(1 − a) first): " + "Lab4 Lab5"),
        text);
    assertTrue(text.contains("IA:Multi"), text);
  }

  @Test
  void tree_badPort_exitTwo() {
    assertEquals(
        2,
        run(
            "tree",
            "--tree",
            example("tree/table4.json"),
            "--task-mb",
            "5",
            "--task-compute",
            "1",
            "--port",
            "both"));
  }

  @Test
  void tree_missingFile_exitTwo() {
    assertEquals(2, run("tree", "--tree", "nope.json", "--task-mb", "5", "--task-compute", "1"));
    assertTrue(err.toString().contains("nope.json: no such file"), err.toString());
  }
}
