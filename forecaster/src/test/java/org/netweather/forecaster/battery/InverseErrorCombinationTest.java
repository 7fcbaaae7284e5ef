package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Combination weights worked by hand on a three-member series. */
class InverseErrorCombinationTest {
  private static final int K = 1; // the combiner with λ = 0.99, p = 8

  @Test
  void weights_twoScoredSteps_matchTheHandWorkedInverseErrorPowers() {
    assertEquals(0.99, InverseErrorCombination.DISCOUNTS[K]);
    assertEquals(8, InverseErrorCombination.POWERS[K]);
    InverseErrorCombination c = new InverseErrorCombination(3);
    // Step 1: forecasts 1, 2, 4 meet 3: errors 2, 1, 1; d = 0.01 e = 0.02, 0.01, 0.01.
    c.score(new double[] {1, 2, 4}, 3, Double.MAX_VALUE);
    // Step 2: forecasts 2, 3, 5 meet 3: errors 1, 0, 2; d = 0.99 d + 0.01 e
    //   = 0.0198 + 0.01, 0.0099 + 0, 0.0099 + 0.02 = 0.0298, 0.0099, 0.0299.
    c.score(new double[] {2, 3, 5}, 3, Double.MAX_VALUE);
    // Weights (0.0099 / d_i)^8: 0.33221^8 = 1.48372e-4, 1, 0.33110^8 = 1.44448e-4; sum 1.00029282.
    double w0 = 1.48372e-4 / 1.00029282;
    double w1 = 1 / 1.00029282;
    double w2 = 1.44448e-4 / 1.00029282;
    assertEquals(w0, c.weight(K, 0, 3), 1e-8);
    assertEquals(w1, c.weight(K, 1, 3), 1e-8);
    assertEquals(w2, c.weight(K, 2, 3), 1e-8);
    assertEquals(1, c.weight(K, 0, 3) + c.weight(K, 1, 3) + c.weight(K, 2, 3), 1e-12);
  }

  @Test
  void combine_heaviestMemberHoldsMoreThanHalf_itsForecastIsTheWeightedMedian() {
    InverseErrorCombination c = new InverseErrorCombination(3);
    c.score(new double[] {1, 2, 4}, 3, Double.MAX_VALUE);
    c.score(new double[] {2, 3, 5}, 3, Double.MAX_VALUE);
    // Member 1 carries 99.97 % of the weight: the weighted median is its forecast, 30, even though
    // it is the largest of the three (the plain median would be 20).
    c.combine(new double[] {10, 30, 20}, 3);
    assertEquals(30, c.forecast(K));
  }

  @Test
  void combine_aPerfectMemberOrEqualErrors_takesItsForecastOrThePlainMedian() {
    InverseErrorCombination c = new InverseErrorCombination(5);
    c.score(new double[] {0, 2, 4, 6, 8}, 4, Double.MAX_VALUE); // errors 4, 2, 0, 2, 4
    c.score(new double[] {8, 6, 4, 2, 0}, 4, Double.MAX_VALUE); // errors 4, 2, 0, 2, 4 again
    // Member 2 has no error: every other member's weight is (0 / d)^p = 0.
    c.combine(new double[] {5, 1, 7, 3, 9}, 5);
    assertEquals(7, c.forecast(K));
    InverseErrorCombination fresh = new InverseErrorCombination(5);
    fresh.score(new double[] {3, 5, 3, 5, 4}, 4, Double.MAX_VALUE); // every error 1 (or 0 for #4)
    fresh.score(new double[] {5, 3, 5, 3, 4}, 4, Double.MAX_VALUE);
    fresh.combine(new double[] {5, 1, 7, 3, 9}, 4); // the fifth is not eligible
    // Four equal weights over 1, 3, 5, 7: the lower weighted median, 3.
    assertEquals(3, fresh.forecast(K));
  }

  @Test
  void combine_ineligibleMembers_takeNoPart() {
    InverseErrorCombination c = new InverseErrorCombination(3);
    c.score(new double[] {0, 0, 5}, 5, Double.MAX_VALUE); // the third is perfect
    c.combine(new double[] {1, 2, 100}, 2);
    assertTrue(c.forecast(K) <= 2);
    assertEquals(0, c.weight(K, 2, 2));
  }
}
