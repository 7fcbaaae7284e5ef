package org.netweather.forecaster.battery.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.forecaster.battery.BatteryLayout;

class EvaluationTest {

  /** Structural facts every report must satisfy, whatever the data. */
  private static void assertWellFormed(EvaluationReport report, List<String> names) {
    assertEquals(names, report.series().stream().map(SeriesReport::name).toList());
    for (SeriesReport s : report.series()) {
      assertEquals(1.0, s.predictors().get("last-value"), 1e-12, s.name());
      List<Double> all = new ArrayList<>(s.predictors().values());
      all.addAll(s.faithfulSelectors().values());
      all.addAll(s.extendedSelectors().values());
      all.addAll(List.of(s.served(), s.servedMse(), s.faithful(), s.faithfulMse(), s.hindsight()));
      for (double r : all) {
        assertTrue(r > 0 && Double.isFinite(r), s.name() + ": " + r);
        assertTrue(s.oracle() <= r + 1e-12, s.name() + ": oracle above " + r);
      }
      for (String faithful : BatteryLayout.faithful().members()) {
        assertTrue(s.hindsight() <= s.predictors().get(faithful) + 1e-12, faithful);
        assertTrue(s.faithfulOracle() <= s.predictors().get(faithful) + 1e-12, faithful);
      }
      assertTrue(s.oracle() <= s.faithfulOracle() + 1e-12);
    }
    for (String key : List.of("served", "faithful", "hindsight", "oracle")) {
      double v = report.summary().get(key);
      assertTrue(v > 0 && Double.isFinite(v), key + " = " + v);
    }
    Map<String, Object> tree = report.toMap();
    assertTrue(tree.containsKey("summary") && tree.containsKey("series"));
  }

  @Test
  void run_syntheticDirectory_reportsEverySeriesInNameOrder(@TempDir Path dir) throws IOException {
    Random random = new Random(3);
    for (String name : List.of("b-noisy", "a-trend")) {
      StringBuilder csv = new StringBuilder("timestamp,value\n");
      double level = 0;
      for (int t = 0; t < 400; t++) {
        level += name.startsWith("a") ? 0.5 : 0;
        csv.append(t * 1000L).append(',').append(level + random.nextGaussian()).append('\n');
      }
      Files.writeString(dir.resolve(name + ".csv"), csv);
    }
    Files.writeString(dir.resolve("notes.txt"), "not a trace");
    EvaluationReport report = new Evaluation(BatteryLayout.standard()).run(dir);
    assertWellFormed(report, List.of("a-trend", "b-noisy"));
    assertEquals(300, report.series().get(0).scored());
  }

  @Test
  void run_directoryWithoutTraces_throws(@TempDir Path dir) {
    assertThrows(
        IllegalArgumentException.class, () -> new Evaluation(BatteryLayout.standard()).run(dir));
  }

  @Test
  void run_nabTraces_everySeriesPresentAndBounded() throws IOException {
    // A directory of NAB CSV traces (docs/forecasting.md, "Evaluation"), named by the caller.
    String dir = System.getProperty("netweather.traces.nab");
    assumeTrue(dir != null, "no -Dnetweather.traces.nab=DIR given");
    Path nab = Path.of(dir);
    assumeTrue(Files.isDirectory(nab), "no NAB traces at " + nab.toAbsolutePath());
    List<String> names;
    try (Stream<Path> files = Files.list(nab)) {
      names =
          files
              .map(p -> p.getFileName().toString())
              .filter(f -> f.endsWith(".csv"))
              .map(f -> f.substring(0, f.length() - 4))
              .sorted()
              .toList();
    }
    EvaluationReport report = new Evaluation(BatteryLayout.standard()).run(nab);
    assertWellFormed(report, names);
  }
}
