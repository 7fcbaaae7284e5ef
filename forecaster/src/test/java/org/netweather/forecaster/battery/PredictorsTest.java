package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every predictor against values worked out by hand. */
class PredictorsTest {
  private static final double EPS = 1e-12;

  private static double feed(Predictor p, double... values) {
    for (double v : values) {
      p.observe(v);
    }
    return p.predict();
  }

  @Test
  void predict_beforeAnyMeasurement_isNaN() {
    for (String name : PredictorRegistry.standard().names()) {
      assertTrue(Double.isNaN(PredictorRegistry.standard().create(name).predict()), name);
    }
  }

  @Test
  void lastValue_afterThree_returnsLast() {
    assertEquals(7.0, feed(new LastValue(), 3, 9, 7), EPS);
  }

  @Test
  void runningMean_afterFour_returnsMeanOfAll() {
    assertEquals(2.5, feed(new RunningMean(), 1, 2, 3, 4), EPS);
  }

  @Test
  void exponentialSmoothing_gain030_followsRecurrence() {
    // p = 4; p = 4 + 0.3 (5 - 4) = 4.3; p = 4.3 + 0.3 (1 - 4.3) = 3.31
    Predictor p = new ExponentialSmoothing(0.30);
    assertEquals(4.0, feed(p, 4), EPS);
    assertEquals(4.3, feed(p, 5), EPS);
    assertEquals(3.31, feed(p, 1), EPS);
  }

  @Test
  void slidingMean_window3_dropsOldest() {
    Predictor p = new SlidingMean(3);
    assertEquals(1.5, feed(p, 1, 2), EPS); // fewer than 3 yet: mean of all
    assertEquals(5.0, feed(p, 3, 10), EPS); // (2 + 3 + 10) / 3
  }

  @Test
  void slidingMean_afterManyLaps_staysExact() {
    Predictor p = new SlidingMean(5);
    for (int i = 0; i < 10_000; i++) {
      p.observe(i % 2 == 0 ? 1e15 : 1);
    }
    feed(p, 1, 2, 3, 4, 5);
    assertEquals(3.0, p.predict(), EPS);
  }

  @Test
  void slidingMedian_window5_returnsMiddleOfLastFive() {
    Predictor p = new SlidingMedian(new SortedWindow(5), true, 5);
    assertEquals(3.0, feed(p, 1, 5), EPS); // even count: mean of the two middles
    assertEquals(3.0, feed(p, 4, 2, 3), EPS); // 1 2 3 4 5
    assertEquals(4.0, feed(p, 10), EPS); // drops the 1: 2 3 4 5 10
  }

  @Test
  void slidingMedian_window5_evictsOldestAmongEquals() {
    Predictor p = new SlidingMedian(new SortedWindow(5), true, 5);
    feed(p, 2, 2, 9, 9, 9);
    assertEquals(9.0, p.predict(), EPS);
    assertEquals(9.0, feed(p, 0), EPS); // 2 9 9 9 0
    assertEquals(9.0, feed(p, 0), EPS); // 9 9 9 0 0
    assertEquals(0.0, feed(p, 0), EPS); // 9 9 0 0 0
  }

  @Test
  void trimmedMean_window10_drops30PercentEachEnd() {
    Predictor p = new TrimmedMean(new SortedWindow(10), true, 10, 0.3);
    // sorted: -50 1 2 3 4 5 6 7 8 100; drop 3 each end -> 3 4 5 6 -> 4.5
    assertEquals(4.5, feed(p, 100, 1, 2, 3, 4, 5, 6, 7, 8, -50), EPS);
    // window 3 of 4 values: drop floor(0.3 * 3) = 0 -> plain mean while warming up
    Predictor q = new TrimmedMean(new SortedWindow(10), true, 10, 0.3);
    assertEquals(2.0, feed(q, 1, 2, 3), EPS);
  }

  @Test
  void adaptiveMedian_movesTowardBestCandidateWindow() {
    AdaptiveMedian p = new AdaptiveMedian(new SortedWindow(3), true, 1, 3, 2, 1);
    assertEquals(15.0, feed(p, 10, 20), EPS); // median of the last 2
    assertEquals(25.0, feed(p, 30), EPS);
    assertEquals(2, p.window()); // only 2 values had been seen before 30: no adaptation yet
    // Candidates before 31: last 1 -> 30 (err 1), last 2 -> 25 (36), last 3 -> 20 (121).
    assertEquals(31.0, feed(p, 31), EPS);
    assertEquals(1, p.window());
    // Candidates before 0: last 1 (w - 1 clamped to 1) -> 31, last 1 -> 31, last 2 -> 30.5.
    // 30.5^2 < 31^2, so the window grows to 2: median of 31, 0.
    assertEquals(15.5, feed(p, 0), EPS);
    assertEquals(2, p.window());
  }

  @Test
  void adaptiveMedian_windowStaysWithinBounds() {
    AdaptiveMedian p = new AdaptiveMedian(new SortedWindow(51), true, 21, 51, 30, 5);
    for (int i = 0; i < 2000; i++) {
      p.observe(i % 7 == 0 ? 100 : i % 3);
      assertTrue(p.window() >= 21 && p.window() <= 51, "window " + p.window());
    }
  }

  @Test
  void holt_gains050_010_followsLevelAndTrend() {
    Predictor p = new HoltTrend(0.5, 0.1);
    assertEquals(10.0, feed(p, 10), EPS);
    // level = 0.5*14 + 0.5*(10 + 0) = 12; trend = 0.1*(12 - 10) + 0.9*0 = 0.2
    assertEquals(12.2, feed(p, 14), EPS);
    // level = 0.5*12 + 0.5*12.2 = 12.1; trend = 0.1*0.1 + 0.9*0.2 = 0.19
    assertEquals(12.29, feed(p, 12), EPS);
  }

  @Test
  void autoRegressive_onSinusoid_learnsTwoCosRecurrence() {
    // sin(w t) obeys x(t+1) = 2 cos(w) x(t) - x(t-1) exactly: an AR(2) with no intercept.
    // Forgetting 0.99 lets the prior P = 100 I fade within the run.
    Predictor p = new AutoRegressive(2, 0.99);
    double w = 0.4;
    for (int t = 0; t < 1000; t++) {
      p.observe(Math.sin(w * t));
    }
    double expected = 2 * Math.cos(w) * Math.sin(w * 999) - Math.sin(w * 998);
    assertEquals(expected, p.predict(), 1e-6);
  }

  @Test
  void autoRegressive_duringWarmup_returnsLastValue() {
    Predictor p = new AutoRegressive(16, 0.999);
    assertEquals(5.0, feed(p, 3, 4, 5), EPS);
  }

  @Test
  void autoRegressive_onConstantSeries_staysFiniteAndExact() {
    Predictor p = new AutoRegressive(16, 0.99);
    for (int t = 0; t < 100_000; t++) {
      p.observe(42);
    }
    assertEquals(42.0, p.predict(), 1e-9);
  }

  @Test
  void normalizedLms_onRamp_forecastsNextStep() {
    Predictor p = new NormalizedLms(8, 0.1);
    for (int t = 0; t < 500; t++) {
      p.observe(3.0 * t);
    }
    assertEquals(1500.0, p.predict(), 1e-6);
  }

  @Test
  void normalizedLms_neverForecastsAMoveLargerThanRecentOnes() {
    Predictor p = new NormalizedLms(4, 1.5);
    double[] xs = {0, 1, 0, 1, 0, 1, 0, 1, 100, 0};
    for (double x : xs) {
      p.observe(x);
      assertTrue(Math.abs(p.predict() - x) <= 100.0 + EPS);
    }
  }

  @Test
  void signErrorLms_onRamp_forecastsNextStep_andAnIsolatedSpikeMovesItLessThanNlms() {
    Predictor sign = NormalizedLms.signError(8, 0.03);
    Predictor nlms = new NormalizedLms(8, 0.1);
    for (int t = 0; t < 3000; t++) {
      sign.observe(3.0 * t);
      nlms.observe(3.0 * t);
    }
    // A constant change is learnt (the forecast never exceeds the recent moves, so it is exact).
    assertEquals(3.0 * 3000, sign.predict(), 0.5);
    // Noise around a level, then one spike and back: the sign rule steps by the error's sign
    // only, so the spike disturbs the next forecasts less.
    java.util.Random rnd = new java.util.Random(3);
    Predictor quietSign = NormalizedLms.signError(8, 0.01);
    Predictor quietNlms = new NormalizedLms(8, 0.1);
    double signError = 0;
    double nlmsError = 0;
    for (int t = 0; t < 600; t++) {
      double x = t == 400 ? 1000 : 10 + rnd.nextGaussian();
      if (t > 401 && t < 420) {
        signError += Math.abs(quietSign.predict() - x);
        nlmsError += Math.abs(quietNlms.predict() - x);
      }
      quietSign.observe(x);
      quietNlms.observe(x);
    }
    assertTrue(signError < nlmsError, "sign " + signError + " nlms " + nlmsError);
    assertEquals("sign-lms-8-0.010", quietSign.name());
    assertThrows(IllegalArgumentException.class, () -> NormalizedLms.signError(8, 1));
  }

  @Test
  void huberLevel_boundsWhatOneSpikeMovesTheLevel_butFollowsALastingShift() {
    Predictor huber = new HuberLevel(0.5);
    Predictor plain = new ExponentialSmoothing(0.5);
    java.util.Random rnd = new java.util.Random(5);
    for (int t = 0; t < 300; t++) {
      double x = 10 + 0.1 * rnd.nextGaussian();
      huber.observe(x);
      plain.observe(x);
    }
    huber.observe(1000);
    plain.observe(1000);
    // Exponential smoothing takes half the spike; the clipped innovation moves the level by at
    // most gain x CLIP x scale (scale ~0.08 here).
    assertTrue(plain.predict() > 400, "plain " + plain.predict());
    assertTrue(huber.predict() < 11, "huber " + huber.predict());
    for (int t = 0; t < 60; t++) {
      huber.observe(50);
    }
    assertEquals(50, huber.predict(), 0.5);
  }

  @Test
  void differencedAr_onQuadratic_forecastsTheNextValue() {
    Predictor p = PredictorRegistry.standard().create("ar4-diff");
    double last = 0;
    for (int t = 0; t < 400; t++) {
      last = 0.5 * t * t;
      p.observe(last);
    }
    // Changes grow linearly (t - 0.5): an AR on the changes extrapolates them.
    double next = 0.5 * 400 * 400;
    assertEquals(next, p.predict(), 0.05 * (next - last));
  }

  @Test
  void constructors_badParameters_throw() {
    assertThrows(IllegalArgumentException.class, () -> new ExponentialSmoothing(0));
    assertThrows(IllegalArgumentException.class, () -> new SlidingMean(0));
    assertThrows(IllegalArgumentException.class, () -> new HoltTrend(1.5, 0.1));
    assertThrows(IllegalArgumentException.class, () -> new AutoRegressive(0, 0.99));
    assertThrows(IllegalArgumentException.class, () -> new NormalizedLms(8, 2));
    assertThrows(
        IllegalArgumentException.class,
        () -> new AdaptiveMedian(new SortedWindow(21), true, 21, 51, 30, 5));
  }
}
