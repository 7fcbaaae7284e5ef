package org.netweather.forecaster.battery.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.netweather.forecaster.battery.BatteryLayout;

/**
 * The noise test of {@code nws evaluate}: the statistic by hand on a small case, and issue 28's
 * shipped example traces, on which the served forecast must not be worse than last value beyond
 * noise.
 */
class DieboldMarianoTest {
  @Test
  void statistic_oneToEight_matchesTheHandComputation() {
    // mean 4.5; lags floor(cbrt 8) = 2; autocovariances 5.25, 3.28125, 1.4375 with Bartlett
    // weights 1, 4/3, 2/3: variance 10.58333, standard error sqrt(10.58333 / 8) = 1.150181.
    double[] d = {1, 2, 3, 4, 5, 6, 7, 8};
    assertEquals(4.5 / Math.sqrt((5.25 + 4.375 + 1.4375 * 2 / 3) / 8), 3.9124, 1e-4);
    assertEquals(3.9124, DieboldMariano.statistic(d, 8), 1e-4);
    assertEquals(0, DieboldMariano.statistic(new double[5], 5));
    assertTrue(Double.isNaN(DieboldMariano.statistic(d, 1)));
  }

  @Test
  void evaluate_noisyLevel_servedBeatsLastValueBeyondNoise() {
    Random r = new Random(28);
    int n = 1_000;
    long[] t = new long[n];
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      t[i] = 1_000L * i;
      v[i] = 50 + 5 * r.nextGaussian();
    }
    SeriesReport s = new Evaluation(BatteryLayout.standard()).evaluate(new Trace("noise", t, v));
    assertTrue(s.servedVersusLast() < -DieboldMariano.NOISE, "z " + s.servedVersusLast());
    assertTrue(!s.servedWithinNoiseOfLast());
  }

  @Test
  void evaluate_shippedExampleTraces_servedNeverWorseThanLastValueBeyondNoise() throws Exception {
    EvaluationReport report =
        new Evaluation(BatteryLayout.standard()).run(Path.of("../examples/traces"));
    assertEquals(3, report.series().size());
    for (SeriesReport s : report.series()) {
      assertTrue(
          s.servedVersusLast() < DieboldMariano.NOISE,
          s.name() + ": served " + s.served() + ", z " + s.servedVersusLast());
    }
  }
}
