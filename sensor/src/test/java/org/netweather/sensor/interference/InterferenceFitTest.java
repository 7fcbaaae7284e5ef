package org.netweather.sensor.interference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class InterferenceFitTest {

  @Test
  void fit_pointsOnPaperFigure1Line_recoversRateAndIntercept() {
    // Kreaseck et al. Figure 1: y = 0.96 - 0.037 x. Raw compute rates are that line times 50
    // tasks/s,
    // and the best point (x = 0) is the maximum used for normalising.
    List<InterferenceSample> samples = new ArrayList<>();
    for (int i = 0; i <= 10; i++) {
      samples.add(new InterferenceSample(i, 50 * (0.96 - 0.037 * i)));
    }

    InterferenceRate ir = InterferenceFit.fit(samples);

    // Normalised by max = 50 * 0.96: y = 1 - (0.037 / 0.96) x.
    assertEquals(0.037 / 0.96, ir.rate(), 1e-12);
    assertEquals(1.0, ir.intercept(), 1e-12);
    assertEquals(0, ir.stdError(), 1e-9);
    assertEquals(11, ir.points());
  }

  @Test
  void fit_noisyPointsAroundLine_rateWithinTwoStandardErrors() {
    // docs/schedulers/interference-trees.md, worked cases T0: synthetic points on Figure 1's line
    // plus noise give IR near 0.037.
    SplittableRandom random = new SplittableRandom(1);
    List<InterferenceSample> samples = new ArrayList<>();
    samples.add(new InterferenceSample(0, 1.0));
    for (int i = 0; i < 95; i++) {
      double x = random.nextDouble(0, 11);
      double noise = (random.nextDouble() - 0.5) * 0.03;
      samples.add(new InterferenceSample(x, Math.min(1.0, 0.96 - 0.037 * x + noise)));
    }

    InterferenceRate ir = InterferenceFit.fit(samples);

    assertTrue(ir.stdError() > 0 && ir.stdError() < 0.002, "stderr " + ir.stdError());
    assertEquals(0.037, ir.rate(), 2 * ir.stdError() + 1e-3);
    assertEquals(0.96, ir.intercept(), 0.01);
  }

  @Test
  void fit_computeRatesNormalisedByMaximumNotFirst() {
    List<InterferenceSample> samples =
        List.of(
            new InterferenceSample(0, 80),
            new InterferenceSample(0, 100),
            new InterferenceSample(10, 50),
            new InterferenceSample(10, 50));

    InterferenceRate ir = InterferenceFit.fit(samples);

    // y: 0.8, 1.0, 0.5, 0.5 -> line through (0, 0.9) and (10, 0.5): slope -0.04.
    assertEquals(0.04, ir.rate(), 1e-12);
    assertEquals(0.9, ir.intercept(), 1e-12);
  }

  @Test
  void fit_tooFewSamples_throws() {
    List<InterferenceSample> two =
        List.of(new InterferenceSample(0, 1), new InterferenceSample(1, 0.9));

    assertThrows(IllegalArgumentException.class, () -> InterferenceFit.fit(two));
  }

  @Test
  void fit_oneTransferRateOnly_throws() {
    List<InterferenceSample> same =
        List.of(
            new InterferenceSample(5, 1),
            new InterferenceSample(5, 0.9),
            new InterferenceSample(5, 0.8));

    assertThrows(IllegalArgumentException.class, () -> InterferenceFit.fit(same));
  }
}
