package org.netweather.scheduler.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.netweather.model.interference.InterferenceCalibration;
import org.netweather.model.interference.InterferenceFit;

/**
 * Inconsistencies #1, #3, #5 of docs/schedulers/interference-trees.md against the paper's tables;
 * the fit and calibration themselves (T0, T2, T6) are tested in the model module.
 */
class InterferenceCalibrationTest {
  // Table 2 of Kreaseck et al.: Lab1..Lab6, Campus0..9, SB0..5, Tenn, France, Brazil.
  private static final double[] IR_R = {
    0.0458, 0.0467, 0.0468, 0.0452, 0.0467, 0.0465, 0.0474, 0.0477, 0.0473, 0.0471, 0.0474, 0.0475,
    0.0474, 0.0472, 0.0477, 0.0494, 0.0510, 0.0515, 0.0513, 0.0511, 0.0511, 0.0501, 0.0743, 0.0848,
    0.0891
  };
  private static final double[] IR_S = {
    0.0314, 0.0299, 0.0299, 0.0199, 0.0211, 0.0305, 0.0388, 0.0373, 0.0383, 0.0381, 0.0367, 0.0377,
    0.0372, 0.0377, 0.0366, 0.0237, 0.0310, 0.0312, 0.0313, 0.0310, 0.0307, 0.0307, 0.0638, 0.0372,
    0.0431
  };
  private static final double[] IR_S_CONST = {
    0.9909, 0.9740, 0.9752, 0.9922, 0.9704, 0.9738, 1.0296, 1.0223, 1.0245, 1.0219, 1.0122, 1.0218,
    1.0136, 1.0177, 1.0073, 0.9745, 0.9771, 0.9781, 0.9762, 0.9758, 0.9762, 0.9784, 0.9911, 0.9966,
    0.9955
  };

  @Test
  void table2_summaryClaims_matchTheText() {
    assertEquals(25, IR_R.length);
    assertEquals(0.0523, Table4.mean(IR_R), 5e-5); // "approximately 0.052"
    assertEquals(0.0342, Table4.mean(IR_S), 5e-5); // "around 0.034"
    assertEquals(0.04628, Table4.mean(Arrays.copyOf(IR_R, 6)), 5e-6); // "roughly 0.0463"
    assertEquals(0.0452, Arrays.stream(IR_R).min().orElseThrow());
    assertEquals(0.0891, Arrays.stream(IR_R).max().orElseThrow());
    assertEquals(0.0199, Arrays.stream(IR_S).min().orElseThrow());
    assertEquals(0.0638, Arrays.stream(IR_S).max().orElseThrow());
    assertEquals(0.48, 1 - 10 * 0.052, 1e-12); // "48 %"
    assertEquals(0.66, 1 - 10 * 0.034, 1e-12); // "66 %"
  }

  @Test
  void table2_intercepts_exceedOneForCampusSoTheFitKeepsThem() {
    // Inconsistency #5: normalised to the maximum, yet "avg const" reaches 1.0296.
    assertEquals(1.0296, Arrays.stream(IR_S_CONST).max().orElseThrow());
    InterferenceFit fit =
        InterferenceFit.fitNormalised(
            new double[] {0, 5, 10},
            new double[] {1.0296, 1.0296 - 5 * 0.0388, 1.0296 - 10 * 0.0388});
    assertEquals(1.0296, fit.intercept(), 1e-12);
    assertEquals(0.0388, fit.rate(), 1e-12);
  }

  @Test
  void twoPoint_table4Row8_matchesPrintedExceptTenn() {
    double[] expected = {0.0333, 0.0208, 0.0224, 0.0331, 0.0342, 0.0773};
    for (int i = 0; i < 6; i++) {
      double ir =
          InterferenceCalibration.twoPoint(
              Table4.ROOT_RATE[i], Table4.ROOT_SENDING[i], Table4.LINK_BOTH[i]);
      assertEquals(expected[i], ir, 5e-5, Table4.LEAVES.get(i));
      boolean consistent = Math.abs(ir - Table4.IR_S_BOTH[i]) < 5e-4;
      // Inconsistency #3: Tenn's printed 0.0331 is Lab6's value copied, not its own.
      assertEquals(!Table4.LEAVES.get(i).equals("Tenn"), consistent, Table4.LEAVES.get(i));
    }
    assertEquals(Table4.IR_S_BOTH[3], Table4.IR_S_BOTH[5]);
  }

  @Test
  void twoPoint_table4Row9_flagsTenn() {
    double[] expected = {0.0443, 0.0453, 0.0626, 0.0130, 0.0425, 0.2003};
    for (int i = 0; i < 6; i++) {
      double ir =
          InterferenceCalibration.twoPoint(
              Table4.LEAF_RATE[i], Table4.LEAF_RECEIVING[i], Table4.LINK_BOTH[i]);
      assertEquals(expected[i], ir, 5e-5, Table4.LEAVES.get(i));
      boolean consistent = Math.abs(ir - Table4.IR_R_BOTH[i]) < 6e-4;
      assertEquals(!Table4.LEAVES.get(i).equals("Tenn"), consistent, Table4.LEAVES.get(i));
    }
    // The printed 0.1300 is near dividing by row 5's 0.3 MB/s instead of row 6's 0.2.
    double byRow5 = InterferenceCalibration.twoPoint(13.23, 12.7, 0.3);
    assertEquals(0.13, byRow5, 0.004);
  }
}
