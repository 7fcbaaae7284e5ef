package org.netweather.model.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LeastSquaresTest {

  // Worked by hand: x = 1..5, y = 2, 3, 5, 4, 6.
  //   mean x = 3, mean y = 4, Sxx = 10, Sxy = 9, Syy = 10
  //   slope = 0.9, intercept = 4 - 0.9 * 3 = 1.3
  //   residuals -0.2, -0.1, 1.0, -0.9, 0.2 -> SSE = 1.9, s^2 = 1.9 / 3
  //   se(slope) = sqrt(s^2 / 10) = 0.2516611...
  //   se(intercept) = sqrt(s^2 * (1/5 + 9/10)) = 0.8346656...
  //   r^2 = 1 - 1.9 / 10 = 0.81
  @Test
  void fit_fivePoints_matchesHandComputation() {
    LinearFit fit = new LeastSquares().add(1, 2).add(2, 3).add(3, 5).add(4, 4).add(5, 6).fit();

    assertEquals(5, fit.n());
    assertEquals(0.9, fit.slope(), 1e-12);
    assertEquals(1.3, fit.intercept(), 1e-12);
    assertEquals(Math.sqrt(1.9 / 3 / 10), fit.slopeStdError(), 1e-12);
    assertEquals(0.2516611478, fit.slopeStdError(), 1e-9);
    assertEquals(0.8346656016, fit.interceptStdError(), 1e-9);
    assertEquals(Math.sqrt(1.9 / 3), fit.residualStdDev(), 1e-12);
    assertEquals(0.81, fit.rSquared(), 1e-12);
    assertEquals(1.3 + 0.9 * 10, fit.predict(10), 1e-12);
  }

  @Test
  void fit_pointsOnALine_zeroStandardError() {
    LeastSquares ls = new LeastSquares();
    for (int i = 0; i < 10; i++) {
      ls.add(i, 0.96 - 0.037 * i);
    }
    LinearFit fit = ls.fit();

    assertEquals(-0.037, fit.slope(), 1e-12);
    assertEquals(0.96, fit.intercept(), 1e-12);
    assertEquals(0, fit.slopeStdError(), 1e-9);
    assertEquals(1, fit.rSquared(), 1e-12);
  }

  @Test
  void fit_twoPoints_noStandardError() {
    LinearFit fit = new LeastSquares().add(0, 1).add(2, 5).fit();

    assertEquals(2, fit.slope(), 1e-12);
    assertEquals(1, fit.intercept(), 1e-12);
    assertTrue(Double.isNaN(fit.slopeStdError()));
  }

  @Test
  void fit_hugeOffsetInX_keepsPrecision() {
    // Nanosecond timestamps: raw sums of x^2 (about 1e32) would swamp Sxx (about 1e17); the
    // centred sums keep it exact.
    double t0 = 1e15;
    LeastSquares ls = new LeastSquares();
    for (int i = 0; i < 100; i++) {
      ls.add(t0 + i * 1e6, 3.0 * i);
    }
    assertEquals(3e-6, ls.fit().slope(), 1e-15);
  }

  @Test
  void fit_allXEqual_throws() {
    LeastSquares ls = new LeastSquares().add(1, 2).add(1, 3);

    assertThrows(IllegalStateException.class, ls::fit);
  }

  @Test
  void add_nonFinite_throws() {
    assertThrows(IllegalArgumentException.class, () -> new LeastSquares().add(Double.NaN, 1));
  }

  @Test
  void fitRange_subsetOfArrays_fitsOnlyThatRange() {
    double[] x = {0, 1, 2, 3, 4, 5};
    double[] y = {100, 100, 2, 4, 6, -50};

    LinearFit fit = LeastSquares.fit(x, y, 2, 5);

    assertEquals(2, fit.slope(), 1e-12);
    assertEquals(-2, fit.intercept(), 1e-12);
  }
}
