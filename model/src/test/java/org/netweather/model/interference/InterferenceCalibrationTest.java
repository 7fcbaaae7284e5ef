package org.netweather.model.interference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.netweather.model.interference.InterferenceCalibration.ChildPoint;

/** Kreaseck et al. §3.1 with the corrected send formula of docs/measurement.md. */
class InterferenceCalibrationTest {

  @Test
  void calibrate_specExample_correctedGives0_055WherePrintedGives0_035() {
    // docs/measurement.md, "Interference rates": C = 10, Cr = 5, MR = 10, RR = 5, SR = 10, Csr = 2.
    ChildPoint p = new ChildPoint("c", 5, 10, 2);
    InterferenceCalibration cal = InterferenceCalibration.calibrate(10, 10, 5, List.of(p));
    assertEquals(0.05, cal.recvRate(), 1e-15);
    assertEquals(0.055, cal.sendRates().get("c"), 1e-15);
    assertEquals(0.035, InterferenceCalibration.printedSendRate(10, 10, 5, p), 1e-15);
    // Only the corrected rate reproduces the measured C_sr/C = 0.2 at (RR, SR).
    assertEquals(0.2, cal.normalisedRate(5, Map.of("c", 10.0)), 1e-15);
    assertNotEquals(0.2, 1 - 5 * 0.05 - 10 * 0.035, 1e-3);
  }

  @Test
  void calibrate_reproducesAllKPlusTwoCalibrationPoints() {
    double c = 13.23;
    double mr = 11.1;
    double cr = 6.9;
    List<ChildPoint> children =
        List.of(
            new ChildPoint("a", 7.5, 3.0, 4.1),
            new ChildPoint("b", 5.0, 6.2, 3.3),
            new ChildPoint("d", 9.8, 0.4, 6.2));

    InterferenceCalibration m = InterferenceCalibration.calibrate(c, mr, cr, children);

    assertEquals(1.0, m.normalisedRate(0, Map.of()), 1e-12);
    assertEquals(cr / c, m.normalisedRate(mr, Map.of()), 1e-12);
    for (ChildPoint p : children) {
      assertEquals(
          p.computeRate() / c,
          m.normalisedRate(p.recvTransfer(), Map.of(p.child(), p.sendTransfer())),
          1e-12,
          p.child());
    }
  }

  @Test
  void calibrate_syntheticNode_reproducesAllKPlus2Points() {
    Random random = new Random(6);
    for (int trial = 0; trial < 50; trial++) {
      double c = 1 + 20 * random.nextDouble();
      double mr = 1 + 10 * random.nextDouble();
      double cr = c * (0.3 + 0.6 * random.nextDouble());
      List<ChildPoint> points = new ArrayList<>();
      int k = 1 + random.nextInt(6);
      for (int i = 0; i < k; i++) {
        double rr = mr * random.nextDouble();
        double sr = 0.5 + 10 * random.nextDouble();
        double csr = cr * (0.2 + 0.7 * random.nextDouble());
        points.add(new ChildPoint("c" + i, rr, sr, csr));
      }
      InterferenceCalibration cal = InterferenceCalibration.calibrate(c, mr, cr, points);
      assertEquals(c, cal.computeRate(0, Map.of()), 1e-9 * c);
      assertEquals(cr, cal.computeRate(mr, Map.of()), 1e-9 * c);
      for (ChildPoint p : points) {
        assertEquals(
            p.computeRate(),
            cal.computeRate(p.recvTransfer(), Map.of(p.child(), p.sendTransfer())),
            1e-9 * c,
            "point " + p);
      }
    }
  }

  @Test
  void normalisedRate_paperAverages_matchTextPercentages() {
    // Kreaseck et al. §2.3 / §2.4: 1 - 10 * 0.052 = 48 %; 1 - 10 * 0.034 = 66 %.
    InterferenceCalibration m = new InterferenceCalibration(1, 0.052, Map.of("c", 0.034));

    assertEquals(0.48, m.normalisedRate(10, Map.of()), 1e-12);
    assertEquals(0.66, m.normalisedRate(0, Map.of("c", 10.0)), 1e-12);
  }

  @Test
  void normalisedRate_unknownChild_rejected() {
    InterferenceCalibration m = new InterferenceCalibration(1, 0.05, new LinkedHashMap<>());
    assertThrows(IllegalArgumentException.class, () -> m.normalisedRate(0, Map.of("x", 1.0)));
  }

  @Test
  void calibrate_nonPositiveInputs_rejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> InterferenceCalibration.calibrate(0, 10, 5, List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> InterferenceCalibration.calibrate(10, 10, 5, List.of(new ChildPoint("c", 1, 0, 2))));
  }
}
