package org.netweather.sensor.interference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;
import org.netweather.sensor.interference.InterferenceModel.ChildPoint;

class InterferenceModelTest {

  @Test
  void calibrate_schedulersSpecExample_givesCorrectedSendRate() {
    // docs/measurement.md, "Interference rates": C = 10, Cr = 5, MR = 10, RR = 5, SR = 10, Csr = 2.
    InterferenceModel m = InterferenceModel.calibrate(10, 10, 5, new ChildPoint(5, 10, 2));

    assertEquals(0.05, m.receiveRate(), 1e-12);
    assertEquals(0.055, m.sendRates()[0], 1e-12);
    // The formula as printed in the paper gives 0.035, which misses the calibration point.
    double printed = (1 - (5 * 10 - 5) / (10.0 * 10) - 2 / 10.0) / 10;
    assertEquals(0.035, printed, 1e-12);
    assertNotEquals(printed, m.sendRates()[0], 1e-6);
  }

  @Test
  void calibrate_reproducesAllKPlusTwoCalibrationPoints() {
    double c = 13.23;
    double mr = 11.1;
    double cr = 6.9;
    ChildPoint[] children = {
      new ChildPoint(7.5, 3.0, 4.1), new ChildPoint(5.0, 6.2, 3.3), new ChildPoint(9.8, 0.4, 6.2)
    };

    InterferenceModel m = InterferenceModel.calibrate(c, mr, cr, children);

    assertEquals(1.0, m.normalizedRate(0), 1e-12);
    assertEquals(cr / c, m.normalizedRate(mr), 1e-12);
    for (int i = 0; i < children.length; i++) {
      double[] sends = new double[children.length];
      sends[i] = children[i].sendMBps();
      assertEquals(
          children[i].computeRate() / c,
          m.normalizedRate(children[i].receiveMBps(), sends),
          1e-12,
          "child " + i);
    }
  }

  @Test
  void normalizedRate_paperAverages_matchTextPercentages() {
    // Kreaseck et al. §2.3 / §2.4: 1 - 10 * 0.052 = 48 %; 1 - 10 * 0.034 = 66 %.
    InterferenceModel m = new InterferenceModel(0.052, new double[] {0.034});

    assertEquals(0.48, m.normalizedRate(10), 1e-12);
    assertEquals(0.66, m.normalizedRate(0, 10), 1e-12);
  }
}
