package org.netweather.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.cli.NwsCommand;
import picocli.CommandLine;

/**
 * Configuration errors and provenance through the {@code nws} command line: the daemon commands
 * fail before starting anything, and {@code nws config show} prints what they would run with.
 */
class ConfigCommandTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cmd = NwsCommand.commandLine();
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    return cmd.execute(args);
  }

  private Path file(String name, String yaml) throws Exception {
    return Files.writeString(dir.resolve(name), yaml);
  }

  /** The one line of stderr, after checking there is exactly one. */
  private String errorLine() {
    List<String> lines = err.toString().lines().toList();
    assertEquals(1, lines.size(), err.toString());
    return lines.get(0);
  }

  /** The row of {@code key} in the block of {@code daemon} of {@code config show}'s output. */
  private String row(String daemon, String key) {
    String block = out.toString().split("(?m)^" + daemon + ":$", 2)[1];
    return block
        .lines()
        .filter(l -> l.strip().startsWith(key + " "))
        .findFirst()
        .orElseThrow(() -> new AssertionError(key + " not in " + out));
  }

  @Test
  void unknownKey_namesTheKeyAndTheFile_exit2_beforeTheDaemonStarts() throws Exception {
    Path f = file("memory.yaml", "port: 0\nrawPionts: 5000\n");
    assertEquals(
        2, run("memory", "--config", f.toString(), "--data-dir", dir.resolve("data").toString()));
    String line = errorLine();
    assertTrue(line.contains("unknown key 'rawPionts'"), line);
    assertTrue(line.contains(f.toString() + ", line 2"), line);
    assertTrue(line.contains("rawPoints"), "lists the known keys: " + line);
    assertTrue(Files.notExists(dir.resolve("data")), "nothing was started");

    assertEquals(2, run("config", "show", "memory-host", "--config", f.toString()));
  }

  @Test
  void badValueInFile_namesKeyFileAndLine_exit2() throws Exception {
    Path f = file("memory.yaml", "# limits\nrawPoints: 0\n");
    assertEquals(2, run("memory", "--config", f.toString()));
    assertEquals(
        "nws memory: config file " + f + ", line 2: rawPoints: must be at least 1," + " got 0",
        errorLine());
  }

  @Test
  void badValueOfTheWrongType_namesKey_exit2() throws Exception {
    Path f = file("sensor.yaml", "probePort: many\n");
    assertEquals(2, run("config", "show", "sensor", "--config", f.toString()));
    assertEquals(
        "nws config show: config file "
            + f
            + ", line 1: probePort: must be an"
            + " integer, got 'many'",
        errorLine());
  }

  @Test
  void badFlagValue_namesKeyAndFlag_exit2() {
    assertEquals(2, run("proxy", "--nameserver", "nowhere"));
    assertEquals(
        "nws proxy: nameserver (--nameserver): must be host:port, got 'nowhere'", errorLine());
  }

  @Test
  void missingFile_namesThePath_exit2() {
    Path f = dir.resolve("absent.yaml");
    assertEquals(2, run("forecaster", "--config", f.toString()));
    assertEquals("nws forecaster: config file " + f + ": no such file", errorLine());
  }

  @Test
  void yamlSyntaxError_saysLineAndColumn_exit2() throws Exception {
    Path f = file("ns.yaml", "port: 8090\ndataDir: [unclosed\nhost: x\n");
    assertEquals(2, run("nameserver", "--config", f.toString()));
    String line = errorLine();
    assertTrue(line.startsWith("nws nameserver: config file " + f + ", line "), line);
    assertTrue(line.matches(".*, line \\d+, column \\d+: YAML syntax error: .+"), line);
  }

  @Test
  void flagOverridesFileOverridesDefault_andShowSaysWhereEachCameFrom() throws Exception {
    Path f = file("memory.yaml", "port: 9000\nrawPoints: 5000\n");
    assertEquals(
        0,
        run(
            "config",
            "show",
            "memory",
            "--config",
            f.toString(),
            "--port",
            "9100",
            "--max-series",
            "7"),
        err.toString());
    assertTrue(
        row("memory-host", "port").matches("\\s*port\\s+9100\\s+flag --port"),
        row("memory-host", "port"));
    assertTrue(
        row("memory-host", "rawPoints")
            .matches("\\s*rawPoints\\s+5000\\s+file " + java.util.regex.Pattern.quote(f + ":2")),
        row("memory-host", "rawPoints"));
    assertTrue(
        row("memory-host", "maxSeries").matches("\\s*maxSeries\\s+7\\s+flag --max-series"),
        row("memory-host", "maxSeries"));
    assertTrue(
        row("memory-host", "consolidationIntervalSeconds")
            .matches("\\s*consolidationIntervalSeconds\\s+7200\\s+default"),
        row("memory-host", "consolidationIntervalSeconds"));
    assertTrue(
        row("memory-host", "host").matches("\\s*host\\s+\"\"\\s+default"),
        row("memory-host", "host"));
  }

  @Test
  void up_readsOneFileWithASectionPerDaemon() throws Exception {
    Path f =
        file(
            "up.yaml",
            """
        up:
          dataDir: /srv/nws
          cluster: lab
        memory-host:
          rawPoints: 500
        proxy:
          staleFactor: 2.5
        """);
    assertEquals(
        0,
        run("config", "show", "up", "--config", f.toString(), "--memory-port", "9999"),
        err.toString());
    assertTrue(row("up", "cluster").contains("file " + f + ":3"), row("up", "cluster"));
    assertTrue(
        row("memory-host", "port")
            .matches("\\s*port\\s+9999\\s+nws up, from up.memoryPort \\(flag --memory-port\\)"),
        row("memory-host", "port"));
    assertTrue(
        row("memory-host", "dataDir").contains("/srv/nws/memory"), row("memory-host", "dataDir"));
    assertTrue(
        row("memory-host", "rawPoints").contains("file " + f + ":5"),
        row("memory-host", "rawPoints"));
    assertTrue(row("proxy", "staleFactor").contains("2.5"), row("proxy", "staleFactor"));
    assertTrue(
        row("sensor", "cluster")
            .matches("\\s*cluster\\s+lab\\s+nws up, from up.cluster" + " \\(file .*:3\\)"),
        row("sensor", "cluster"));
    assertTrue(
        row("forecaster", "burnIn").matches("\\s*burnIn\\s+100\\s+default"),
        row("forecaster", "burnIn"));
  }

  @Test
  void up_aWiredKeyInADaemonSection_namesTheUpKeyToUse() throws Exception {
    Path f = file("up.yaml", "memory-host:\n  port: 1234\n");
    assertEquals(2, run("config", "show", "up", "--config", f.toString()));
    assertEquals(
        "nws config show: config file "
            + f
            + ", line 2: memory-host.port is set by"
            + " nws up; set up.memoryPort (--memory-port) instead",
        errorLine());
  }

  @Test
  void up_unknownKeyInASection_namesSectionAndKey() throws Exception {
    Path f = file("up.yaml", "forecaster:\n  burnin: 5\n");
    assertEquals(2, run("up", "--config", f.toString()));
    String line = errorLine();
    assertTrue(
        line.startsWith(
            "nws up: config file " + f + ", line 2: unknown key" + " 'forecaster.burnin'"),
        line);
  }

  @Test
  void show_unknownDaemon_exit2() {
    assertEquals(2, run("config", "show", "weather"));
    assertTrue(errorLine().contains("unknown daemon 'weather'"), err.toString());
  }

  @Test
  void daemonHelp_isGeneratedFromTheSettings_withTheFlagsSpelledAsBefore() {
    assertEquals(0, run("memory", "--help"));
    String help = out.toString();
    for (String flag :
        List.of(
            "--config",
            "--port",
            "--metrics-port",
            "--data-dir",
            "--nameserver",
            "--name",
            "--host",
            "--raw-points",
            "--raw-max-age-seconds",
            "--max-series",
            "--max-new-series-per-call",
            "--max-new-series-per-caller-per-minute",
            "--consolidation-interval-seconds")) {
      assertTrue(help.contains(flag + "="), flag + " in " + help);
    }
    assertTrue(help.replaceAll("\\s+", " ").contains("(at least 1) Default: 10000."), help);
    out.getBuffer().setLength(0);
    assertEquals(0, run("up", "--help"));
    for (String flag :
        List.of(
            "--data-dir",
            "--host",
            "--nameserver-port",
            "--memory-port",
            "--forecaster-port",
            "--proxy-port",
            "--sensor-port",
            "--probe-port",
            "--metrics-port",
            "--cluster",
            "--config")) {
      assertTrue(out.toString().contains(flag + "="), flag + " in " + out);
    }
  }
}
