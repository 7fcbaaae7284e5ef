package org.netweather.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Criterion;
import org.netweather.client.NetWeatherClient;

/**
 * The README's tour as a reader runs it: the command of the block marked {@value #START} (with free
 * ports and a scratch data directory added), then every line of the blocks marked {@value #RUN},
 * each through {@code bash} from a directory that looks like a checkout. Every line must exit 0,
 * and a few answers must say what the README says they do.
 */
class ReadmeTourIT {
  static final String START = "<!-- ReadmeTourIT starts";
  static final String RUN = "<!-- ReadmeTourIT runs";

  /** Short-lived command-line JVMs: the client compiler is enough and spares the shared cores. */
  private static final String CLI_JAVA_OPTS = "-Xmx256m -XX:TieredStopAtLevel=1";

  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};

  @TempDir Path dir;

  private record Result(String command, int exit, String out, String err) {
    String both() {
      return "$ " + command + "\n(exit " + exit + ")\n" + out + err;
    }
  }

  @Test
  @Timeout(300)
  void tour_asWrittenInTheReadme_everyCommandSucceeds() throws Exception {
    Path home = Path.of(System.getProperty("netweather.home", "..")).toAbsolutePath().normalize();
    String readme = Files.readString(home.resolve("README.md"));
    List<List<String>> starts = MarkedBlocks.after(readme, START);
    assertEquals(1, starts.size(), "README.md: one block marked " + START);
    assertEquals(1, starts.get(0).size(), "README.md: the start block holds one command");
    List<String> tour =
        MarkedBlocks.after(readme, RUN).stream().flatMap(List::stream).collect(Collectors.toList());
    assertFalse(tour.isEmpty(), "README.md: no block marked " + RUN);

    // What a reader has: a checkout, and a shell in it.
    Path work = Files.createDirectories(dir.resolve("checkout"));
    Files.createSymbolicLink(work.resolve("bin"), home.resolve("bin"));
    Files.createSymbolicLink(work.resolve("examples"), home.resolve("examples"));
    String hostname = bash(work, Map.of(), "hostname").out.strip();

    int nameserverPort = DaemonProcesses.freePort();
    List<String> up = new ArrayList<>(List.of(starts.get(0).get(0)));
    up.addAll(
        List.of(
            "--data-dir", dir.resolve("nws-data").toString(),
            "--nameserver-port", "" + nameserverPort,
            "--memory-port", "" + DaemonProcesses.freePort(),
            "--forecaster-port", "" + DaemonProcesses.freePort(),
            "--proxy-port", "" + DaemonProcesses.freePort(),
            "--sensor-port", "" + DaemonProcesses.freePort(),
            "--probe-port", "" + DaemonProcesses.freePort(),
            "--metrics-port", "" + DaemonProcesses.freePort()));
    int webPort = addVersionFlags(work, up);

    Path upLog = dir.resolve("up.log");
    ProcessBuilder upBuilder =
        new ProcessBuilder("bash", "-c", "exec " + String.join(" ", up))
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(upLog.toFile());
    upBuilder.environment().put("NWS_JAVA_OPTS", "-Xmx384m");
    long started = System.nanoTime();
    Process nws = upBuilder.start();
    Map<String, String> env =
        Map.of("NWS_NAMESERVER", "localhost:" + nameserverPort, "NWS_JAVA_OPTS", CLI_JAVA_OPTS);
    Map<String, Result> results = new LinkedHashMap<>();
    try {
      // The README promises this machine's first forecasts within half a minute of the start (on a
      // quiet machine: the wait allows for a busy one).
      awaitForecast(nws, upLog, nameserverPort, "cpu.availability:" + hostname);
      // Where the time goes, for whoever finds this test slow.
      System.out.printf("nws up serving forecasts after %d ms%n", elapsedMs(started));
      for (String command : tour) {
        long t = System.nanoTime();
        Result r = bash(work, env, command);
        System.out.printf("%6d ms  %s%n", elapsedMs(t), command);
        assertEquals(0, r.exit, "a README command failed:\n" + r.both() + upTail(upLog));
        results.put(command, r);
      }
      if (webPort != 0) {
        Matcher address =
            Pattern.compile("https?://[^\\s/]+:" + webPort + "/?").matcher(Files.readString(upLog));
        assertTrue(address.find(), "nws up printed no dashboard address:\n" + upTail(upLog));
        HttpResponse<String> page =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(URI.create(address.group()))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode(), address.group() + ": " + page.body());
      }
    } finally {
      nws.destroy();
      if (!nws.waitFor(30, TimeUnit.SECONDS)) {
        DaemonProcesses.kill9(nws);
      }
      // The links, not what they point to: the checkout's own bin and examples stay.
      Files.delete(work.resolve("bin"));
      Files.delete(work.resolve("examples"));
    }

    // What the README says the commands show.
    Result put = only(results, "bin/nws put ");
    String[] words = put.command.split("\\s+");
    Result history = only(results, "bin/nws history " + words[2]);
    assertTrue(history.out.contains(words[3]), "history lacks the value put:\n" + history.both());
    Result forecast = only(results, "bin/nws forecast cpu.availability:$(hostname)");
    assertTrue(
        forecast.out.contains("cpu.availability:" + hostname),
        "the forecast does not name this machine's series:\n" + forecast.both());
    Result hosts = only(results, "bin/nws hosts");
    assertTrue(
        hosts.out.contains("sensor@" + hostname), "no sensor of this host:\n" + hosts.both());
    Result plot = only(results, "bin/nws plot ");
    Matcher png = Pattern.compile("-o\\s+(\\S+)").matcher(plot.command);
    assertTrue(png.find(), "the plot command names no output: " + plot.command);
    byte[] image = Files.readAllBytes(work.resolve(png.group(1)));
    assertArrayEquals(PNG, Arrays.copyOf(image, 4), "not a PNG: " + png.group(1));
    Result evaluate = only(results, "bin/nws evaluate examples/traces");
    try (Stream<Path> traces = Files.list(home.resolve("examples/traces"))) {
      for (Path trace : traces.filter(p -> p.toString().endsWith(".csv")).toList()) {
        String name = trace.getFileName().toString().replace(".csv", "");
        assertTrue(evaluate.out.contains(name), name + " not evaluated:\n" + evaluate.both());
      }
    }
  }

  /**
   * Flags the start command needs on this version of {@code nws up} besides ports: the dashboard on
   * a free port (or none, where it cannot be moved), and this machine's host name where {@code up}
   * does not name its host by it by itself. Returns the dashboard's port, 0 if it does not run.
   */
  private static int addVersionFlags(Path work, List<String> up) throws Exception {
    String help = bash(work, Map.of(), up.get(0) + " --help").out.replaceAll("\\s+", " ");
    int webPort = 0;
    if (help.contains("--web-port")) {
      webPort = DaemonProcesses.freePort();
      up.addAll(List.of("--web-port", "" + webPort));
    } else if (help.contains("--no-web")) {
      up.add("--no-web");
    }
    // The option's description, not the usage line's "[--host=TEXT]".
    Matcher host = Pattern.compile("--host=\\S+ ([^\\[].*?)(?= --|$)").matcher(help);
    if (host.find() && host.group(1).contains("Default: localhost")) {
      up.addAll(List.of("--host", "\"$(hostname)\""));
    }
    return webPort;
  }

  private static void awaitForecast(Process nws, Path upLog, int port, String series)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    try (NetWeatherClient client =
        NetWeatherClient.forAddress("localhost:" + port).deadline(Duration.ofSeconds(5)).build()) {
      while (true) {
        assertTrue(nws.isAlive(), "nws up exited:\n" + upTail(upLog));
        try {
          client.forecast(series, Criterion.CRITERION_MSE);
          return;
        } catch (StatusRuntimeException e) {
          if (System.nanoTime() > deadline) {
            throw new AssertionError("no forecast of " + series + ": " + e + upTail(upLog), e);
          }
        }
        Thread.sleep(500);
      }
    }
  }

  private static long elapsedMs(long since) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
  }

  private static Result only(Map<String, Result> results, String prefix) {
    List<Result> matching =
        results.values().stream().filter(r -> r.command.startsWith(prefix)).toList();
    assertEquals(1, matching.size(), "the README's tour has no single '" + prefix + "...'");
    return matching.get(0);
  }

  private static Result bash(Path work, Map<String, String> env, String command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).directory(work.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    String err = read(p.getErrorStream());
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("did not finish in 90 s: " + command);
    }
    return new Result(command, p.exitValue(), out.join(), err);
  }

  private static String read(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String upTail(Path upLog) throws IOException {
    List<String> lines = Files.readAllLines(upLog);
    return "\n--- nws up's log (last lines):\n"
        + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
