package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LevinsonAutoRegressiveTest {
  private static final double EPS = 1e-12;

  @Test
  void autocovariances_firstThreeValues_matchHandWorkedSums() {
    Autocovariances s = new Autocovariances(0.95, 1);
    s.add(1); // mean 1; one value, no lag-1 product yet
    assertEquals(0.0, s.covariance(0), 0);
    s.add(3); // mean 1 + (3 - 1) / 2 = 2; c0 = 1 * 1, c1 = 1 * (1 - 2)
    assertEquals(2.0, s.mean(), EPS);
    assertEquals(1.0, s.covariance(0), EPS);
    assertEquals(-1.0, s.covariance(1), EPS);
    s.add(1); // mean 2 + (1 - 2) / 3 = 5/3; d = -2/3
    assertEquals(5.0 / 3, s.mean(), EPS);
    assertEquals(0.95 + 4.0 / 9, s.covariance(0), EPS); // 0.95 * 1 + (-2/3)^2
    assertEquals(-0.95 - 8.0 / 9, s.covariance(1), EPS); // 0.95 * -1 + (-2/3)(3 - 5/3)
    assertEquals(1.0, s.recent(0), 0);
    assertEquals(3.0, s.recent(1), 0);
  }

  @Test
  void autocovariances_offeredTwice_addOnce() {
    Autocovariances s = new Autocovariances(0.99, 2);
    s.offer(0, 5);
    s.offer(0, 5);
    s.offer(1, 7);
    assertEquals(2, s.added());
    assertEquals(6.0, s.mean(), EPS);
  }

  @Test
  void order2_solvesTheYuleWalkerEquations() {
    Autocovariances s = new Autocovariances(0.99, 2);
    LevinsonAutoRegressive p = new LevinsonAutoRegressive(s, true, 2);
    Random random = new Random(5);
    double x = 0;
    for (int t = 0; t < 192; t++) {
      x = 0.6 * x + random.nextGaussian();
      p.observe(10 + x);
    }
    for (double v : new double[] {10, 12, 9, 11, 10, 13, 8, 12}) { // ends on a refit, step 200
      p.observe(v);
    }
    // [c0', c1; c1, c0'] a = [c1, c2] with c0' = c0 (1 + 1e-6), by Cramer's rule.
    double c0 = s.covariance(0) * (1 + 1e-6);
    double c1 = s.covariance(1);
    double c2 = s.covariance(2);
    double det = c0 * c0 - c1 * c1;
    assertEquals((c1 * c0 - c1 * c2) / det, p.coefficient(1), 1e-12);
    assertEquals((c0 * c2 - c1 * c1) / det, p.coefficient(2), 1e-12);
    double mean = s.mean();
    double expected =
        mean + p.coefficient(1) * (s.recent(0) - mean) + p.coefficient(2) * (s.recent(1) - mean);
    assertEquals(expected, p.predict(), 1e-12); // well inside the clamp, [8 - 4, 12 + 4]
  }

  @Test
  void onSinusoid_learnsTwoCosRecurrence() {
    // Autocovariances of sin(w t) are cos(w j) / 2, for which Yule-Walker AR(2) is exactly
    // x(t+1) = 2 cos(w) x(t) - x(t-1). The weighted estimates carry an oscillating bias of
    // order (1 - lambda) / w (here 0.0025 / 0.4), hence the loose tolerance.
    Autocovariances s = new Autocovariances(0.999, 2);
    LevinsonAutoRegressive p = new LevinsonAutoRegressive(s, true, 2);
    double w = 0.4;
    for (int t = 0; t < 20_000; t++) {
      p.observe(Math.sin(w * t));
    }
    assertEquals(2 * Math.cos(w), p.coefficient(1), 0.05);
    assertEquals(-1, p.coefficient(2), 0.05);
    double expected = 2 * Math.cos(w) * Math.sin(w * 19_999) - Math.sin(w * 19_998);
    assertEquals(expected, p.predict(), 0.05);
  }

  @Test
  void duringWarmup_returnsLastValue() {
    Predictor p = PredictorRegistry.standard().create("ar16-ld");
    for (int t = 0; t < 31; t++) { // warm-up is 2 x 16 measurements
      p.observe(t % 2 == 0 ? 3 : 5);
      assertEquals(t % 2 == 0 ? 3.0 : 5.0, p.predict(), 0);
    }
  }

  @Test
  void onConstantSeries_forecastsItExactly() {
    Predictor p = PredictorRegistry.standard().create("ar16-ld");
    for (int t = 0; t < 100_000; t++) {
      p.observe(42);
    }
    assertEquals(42.0, p.predict(), 0);
  }

  @Test
  void membersOfOneBattery_shareOneEstimator() {
    WindowPool pool = new WindowPool();
    Autocovariances a = pool.autocovariances(0.999, 4);
    Autocovariances b = pool.autocovariances(0.999, 16);
    assertSame(a, b);
    assertEquals(16, a.maxLag());
    List<Predictor> both = PredictorRegistry.standard().create(List.of("ar16-ld", "ar4-ld"));
    Predictor alone = new LevinsonAutoRegressive(new Autocovariances(0.999, 16), true, 4);
    // The second member does not count the shared statistics again.
    assertEquals(
        alone.stateBytes() - new Autocovariances(0.999, 16).stateBytes(), both.get(1).stateBytes());
    double[] series = {1, 4, 2, 8, 5, 7, 1, 3, 9, 2};
    for (int t = 0; t < 500; t++) {
      double v = series[t % series.length] + t * 0.01;
      both.get(0).observe(v);
      both.get(1).observe(v);
      alone.observe(v);
    }
    assertEquals(alone.predict(), both.get(1).predict(), 0); // sharing changes nothing
  }

  @Test
  void badParameters_throw() {
    assertThrows(IllegalArgumentException.class, () -> new Autocovariances(1, 4));
    assertThrows(IllegalArgumentException.class, () -> new Autocovariances(0.99, 0));
    Autocovariances s = new Autocovariances(0.99, 4);
    assertThrows(IllegalArgumentException.class, () -> new LevinsonAutoRegressive(s, true, 5));
    s.add(1);
    assertThrows(IllegalStateException.class, () -> s.ensureLag(8));
  }
}
