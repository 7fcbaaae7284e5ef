package org.netweather.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.scheduler.cluster.LatencyMatrix;
import org.netweather.scheduler.cluster.LatencyMatrixReader;
import org.netweather.scheduler.frame.SnapshotConverter;
import org.netweather.scheduler.frame.SnapshotReader;
import org.netweather.scheduler.pipeline.PipelineReader;
import org.netweather.scheduler.tree.TreeReader;

/**
 * The files a scheduler is given (snapshot, tree and pipeline JSON, latency matrix CSV): whatever
 * they hold, reading gives the document or an {@link IllegalArgumentException} naming the file,
 * never another exception. Seeds in {@code SchedulerInputFuzzTestInputs/}; {@code benchmarks/fuzz}
 * fuzzes longer.
 */
class SchedulerInputFuzzTest {
  private static Path dir;

  @BeforeAll
  static void makeDir() throws IOException {
    dir = Files.createTempDirectory("scheduler-fuzz");
  }

  @AfterAll
  static void removeDir() throws IOException {
    Files.deleteIfExists(dir.resolve("m.csv"));
    Files.deleteIfExists(dir);
  }

  private static String text(byte[] data) {
    return new String(data, StandardCharsets.UTF_8);
  }

  private static void assertNamesSource(IllegalArgumentException e, String source) {
    assertNotNull(e.getMessage());
    assertTrue(e.getMessage().contains(source), e.getMessage());
  }

  @FuzzTest
  void snapshot(byte[] data) {
    ClusterSnapshot snapshot;
    try {
      snapshot = SnapshotReader.parse(text(data), "s.json");
    } catch (IllegalArgumentException e) {
      assertNamesSource(e, "s.json");
      return;
    }
    try {
      assertNotNull(SnapshotConverter.toModel(snapshot));
    } catch (IllegalArgumentException e) {
      assertNotNull(e.getMessage());
    }
  }

  @FuzzTest
  void tree(byte[] data) {
    try {
      assertNotNull(TreeReader.parse(text(data), "t.json"));
    } catch (IllegalArgumentException e) {
      assertNamesSource(e, "t.json");
    }
  }

  @FuzzTest
  void pipeline(byte[] data) {
    try {
      assertNotNull(PipelineReader.parse(text(data), "p.json"));
    } catch (IllegalArgumentException e) {
      assertNamesSource(e, "p.json");
    }
  }

  @FuzzTest
  void latencyMatrix(byte[] data) throws IOException {
    Path file = Files.write(dir.resolve("m.csv"), data);
    LatencyMatrix m;
    try {
      m = LatencyMatrixReader.read(file, LatencyMatrix.Symmetry.MAX);
    } catch (IllegalArgumentException e) {
      assertNamesSource(e, file.toString());
      return;
    }
    assertEquals(m.size(), m.hosts().size());
    for (int i = 0; i < m.size(); i++) {
      for (int j = 0; j < m.size(); j++) {
        assertEquals(m.get(i, j), m.get(j, i), "MAX makes the matrix symmetric");
      }
    }
  }
}
