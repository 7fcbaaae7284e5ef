package org.netweather.runtime.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/** Real logback writing real files: format, one line per event, rotation, levels, repeats. */
class LogsTest {
  @TempDir Path dir;
  private final LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();

  @AfterEach
  void restoreTestLogging() throws Exception {
    ctx.reset();
    new ContextInitializer(ctx).autoConfig();
  }

  private List<String> lines(Path file) throws IOException {
    ctx.stop(); // flushes and closes the file appender
    return Files.readAllLines(file);
  }

  @Test
  void text_isOneLinePerEvent_withAnIsoTimeAndZone_andTheExceptionOnTheSameLine() throws Exception {
    Path file = dir.resolve("nws.log");
    Logs.configure(ctx, new LogSettings("text", file.toString(), 50, 5, Map.of()));
    Logger log = LoggerFactory.getLogger("org.netweather.test.Text");
    log.info("plain message {}", 42);
    log.warn("failed to reach {}", "alpha", new IOException("connection refused"));
    List<String> lines = lines(file);
    assertEquals(2, lines.size(), String.join("\n", lines));
    for (String line : lines) {
      OffsetDateTime.parse(line.substring(0, line.indexOf(' '))); // throws unless ISO with zone
    }
    assertTrue(lines.get(0).endsWith("- plain message 42"), lines.get(0));
    assertTrue(lines.get(1).contains("WARN "), lines.get(1));
    assertTrue(
        lines.get(1).contains("failed to reach alpha | java.io.IOException: connection refused"),
        lines.get(1));
    assertTrue(lines.get(1).contains(" | at org.netweather"), "first frames kept: " + lines.get(1));
  }

  @Test
  void json_isOneObjectPerLine() throws Exception {
    Path file = dir.resolve("nws.json");
    Logs.configure(ctx, new LogSettings("json", file.toString(), 50, 5, Map.of()));
    LoggerFactory.getLogger("org.netweather.test.Json").error("disk full on {}", "/var/lib");
    List<String> lines = lines(file);
    assertEquals(1, lines.size());
    JsonNode event = new ObjectMapper().readTree(lines.get(0));
    assertEquals("ERROR", event.get("level").asText());
    assertEquals("org.netweather.test.Json", event.get("loggerName").asText());
    assertTrue(event.get("timestamp").asLong() > 0);
  }

  @Test
  void file_rotatesBySize_keepingTheConfiguredNumber() throws Exception {
    Path file = dir.resolve("rot.log");
    Logs.configure(ctx, new LogSettings("text", file.toString(), 1, 2, Map.of()));
    Logger log = LoggerFactory.getLogger("org.netweather.test.Rotate");
    String filler = "x".repeat(1000);
    for (int i = 0; i < 5_000; i++) { // about 5 MiB: rotated several times
      log.info("line {} {}", i, filler);
    }
    ctx.stop();
    assertTrue(Files.exists(file));
    assertTrue(Files.exists(dir.resolve("rot.log.1")));
    assertTrue(Files.exists(dir.resolve("rot.log.2")));
    assertFalse(Files.exists(dir.resolve("rot.log.3")), "only logFiles rotated files are kept");
    assertTrue(Files.size(dir.resolve("rot.log.1")) < 2L << 20);
  }

  @Test
  void levels_perComponent() throws Exception {
    Path file = dir.resolve("levels.log");
    Logs.configure(
        ctx,
        new LogSettings(
            "text", file.toString(), 50, 5, Map.of("org.netweather.test.loud", "DEBUG")));
    LoggerFactory.getLogger("org.netweather.test.loud.A").debug("shown");
    LoggerFactory.getLogger("org.netweather.test.quiet.B").debug("hidden");
    LoggerFactory.getLogger("io.grpc.Something").info("libraries stay at WARN");
    List<String> lines = lines(file);
    assertEquals(1, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(0).endsWith("shown"));
  }

  @Test
  void repeatedFailures_areLoggedOnce_thenCounted() throws Exception {
    Path file = dir.resolve("repeat.log");
    Logs.configure(ctx, new LogSettings("text", file.toString(), 50, 5, Map.of()));
    AtomicLong now = new AtomicLong(1_000_000);
    RepeatFilter filter = new RepeatFilter(60_000, now::get);
    filter.setContext(ctx);
    filter.start();
    ctx.resetTurboFilterList();
    ctx.addTurboFilter(filter);
    Logger log = LoggerFactory.getLogger("org.netweather.test.Repeat");
    for (int i = 0; i < 100; i++) {
      log.warn("cannot deliver to {}", "mem1", new IOException("refused " + i));
    }
    log.warn("another kind of failure");
    now.addAndGet(61_000);
    filter.flush();
    log.warn("cannot deliver to {}", "mem1", new IOException("refused again"));
    List<String> lines = lines(file);
    assertEquals(4, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(0).contains("cannot deliver to mem1"));
    assertTrue(lines.get(1).contains("another kind of failure"));
    assertTrue(
        lines.get(2).contains("repeated 99 more times in the last 60 s: cannot deliver to {}"),
        lines.get(2));
    assertTrue(lines.get(3).contains("refused again"));
  }

  @Test
  void repeatedFailures_withMarkers_areFoldedPerMarker() throws Exception {
    Path file = dir.resolve("markers.log");
    Logs.configure(ctx, new LogSettings("text", file.toString(), 50, 5, Map.of()));
    AtomicLong now = new AtomicLong(1_000_000);
    RepeatFilter filter = new RepeatFilter(60_000, now::get);
    filter.setContext(ctx);
    filter.start();
    ctx.resetTurboFilterList();
    ctx.addTurboFilter(filter);
    Logger log = LoggerFactory.getLogger("org.netweather.test.Markers");
    Marker a = MarkerFactory.getDetachedMarker("10.0.0.1:8050");
    Marker b = MarkerFactory.getDetachedMarker("10.0.0.2:8050");
    for (int i = 0; i < 3; i++) {
      log.warn(a, "cannot deliver to {}", "10.0.0.1:8050");
      log.warn(b, "cannot deliver to {}", "10.0.0.2:8050");
    }
    now.addAndGet(60_000);
    filter.flush();
    List<String> lines = lines(file);
    assertEquals(4, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(0).endsWith("cannot deliver to 10.0.0.1:8050"), lines.get(0));
    assertTrue(lines.get(1).endsWith("cannot deliver to 10.0.0.2:8050"), lines.get(1));
    assertTrue(
        lines
            .get(2)
            .endsWith(
                "repeated 2 more times in the last 60 s: [10.0.0.1:8050] cannot deliver to {}"),
        lines.get(2));
    assertTrue(lines.get(3).contains("[10.0.0.2:8050]"), lines.get(3));
  }
}
