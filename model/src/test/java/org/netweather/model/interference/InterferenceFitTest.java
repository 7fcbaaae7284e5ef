package org.netweather.model.interference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Kreaseck et al. §2.2 and the worked cases of docs/schedulers/interference-trees.md. */
class InterferenceFitTest {

  @Test
  void fit_pointsOnPaperFigure1Line_recoversRateAndIntercept() {
    // Kreaseck et al. Figure 1: y = 0.96 - 0.037 x. Raw compute rates are that line times 50
    // tasks/s, and the best point (x = 0) is the maximum used for normalising.
    double[] x = new double[11];
    double[] c = new double[11];
    for (int i = 0; i <= 10; i++) {
      x[i] = i;
      c[i] = 50 * (0.96 - 0.037 * i);
    }

    InterferenceFit ir = InterferenceFit.fit(x, c);

    // Normalised by max = 50 * 0.96: y = 1 - (0.037 / 0.96) x.
    assertEquals(0.037 / 0.96, ir.rate(), 1e-12);
    assertEquals(1.0, ir.intercept(), 1e-12);
    assertEquals(0, ir.rateStdError(), 1e-9);
    assertEquals(11, ir.points());
  }

  @Test
  void fit_noisyPointsAroundLine_rateWithinTwoStandardErrors() {
    // docs/schedulers/interference-trees.md, worked cases T0: synthetic points on Figure 1's line
    // plus noise give IR near 0.037.
    SplittableRandom random = new SplittableRandom(1);
    double[] x = new double[96];
    double[] c = new double[96];
    x[0] = 0;
    c[0] = 1.0;
    for (int i = 1; i < 96; i++) {
      x[i] = random.nextDouble(0, 11);
      double noise = (random.nextDouble() - 0.5) * 0.03;
      c[i] = Math.min(1.0, 0.96 - 0.037 * x[i] + noise);
    }

    InterferenceFit ir = InterferenceFit.fit(x, c);

    assertTrue(ir.rateStdError() > 0 && ir.rateStdError() < 0.002, "stderr " + ir.rateStdError());
    assertEquals(0.037, ir.rate(), 2 * ir.rateStdError() + 1e-3);
    assertEquals(0.96, ir.intercept(), 0.01);
  }

  @Test
  void fit_computeRatesNormalisedByMaximumNotFirst() {
    InterferenceFit ir =
        InterferenceFit.fit(new double[] {0, 0, 10, 10}, new double[] {80, 100, 50, 50});

    // y: 0.8, 1.0, 0.5, 0.5 -> line through (0, 0.9) and (10, 0.5): slope -0.04.
    assertEquals(0.04, ir.rate(), 1e-12);
    assertEquals(0.9, ir.intercept(), 1e-12);
  }

  @Test
  void fit_oneTransferRateOnly_throws() {
    assertThrows(
        IllegalArgumentException.class,
        () -> InterferenceFit.fit(new double[] {5, 5, 5}, new double[] {1, 0.9, 0.8}));
    assertThrows(
        IllegalArgumentException.class,
        () -> InterferenceFit.fitNormalised(new double[] {3, 3}, new double[] {1, 0.9}));
  }

  @Test
  void fit_noPositiveComputeRate_throws() {
    assertThrows(
        IllegalArgumentException.class,
        () -> InterferenceFit.fit(new double[] {0, 1, 2}, new double[] {0, 0, 0}));
  }

  @Test
  void fit_figure1LinePlusNoise_recoversIr0_037() {
    Random random = new Random(1);
    int n = 95; // "an average of 95 data points" per experiment
    double[] x = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = 11 * random.nextDouble();
      y[i] = 0.96 - 0.037 * x[i] + 0.01 * random.nextGaussian();
    }
    InterferenceFit fit = InterferenceFit.fitNormalised(x, y);
    assertEquals(0.037, fit.rate(), 0.002);
    assertEquals(0.96, fit.intercept(), 0.01);
    assertTrue(fit.maxError() < 0.04 && fit.rmsError() < 0.015);
    assertTrue(fit.maxError() >= fit.rmsError());
  }

  @Test
  void fit_rawRates_normalisedByTheirMaximum() {
    InterferenceFit fit = InterferenceFit.fit(new double[] {0, 10}, new double[] {20, 10});
    assertEquals(1.0, fit.intercept(), 1e-12);
    assertEquals(0.05, fit.rate(), 1e-12);
    assertEquals(0.75, fit.predict(5), 1e-12);
    assertEquals(2, fit.points());
  }
}
