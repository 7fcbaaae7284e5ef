package org.netweather.scheduler.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/schedulers/clusters.md, worked cases P2: Table 3 formulas and the model/algorithm choice of
 * Table 4.
 */
class BroadcastModelTest {
  /** GigE pLogP: L = 30 µs, g(m) = 10 µs + m / 117 MB/s (117 bytes per µs). */
  private static final CommModel GIGE = CommModel.pLogP(30, 10, 117);

  @Test
  void cost_orsayAt8KiB_matchesP2() {
    assertEquals(1550.3, BroadcastAlgorithm.LINEAR.cost(GIGE, 20, 8192), 0.05);
    assertEquals(470.1, BroadcastAlgorithm.BINOMIAL.cost(GIGE, 20, 8192), 0.05);
    assertEquals(950.2, BroadcastAlgorithm.BINARY.cost(GIGE, 20, 8192), 0.05);
    BroadcastAlgorithm.Plan pipe = BroadcastAlgorithm.PIPELINE.plan(GIGE, 20, 8192);
    assertEquals(1044.6, pipe.time(), 0.05);
    assertEquals(11, pipe.segments());
  }

  @Test
  void cost_orsayAt512KiB_matchesP2() {
    assertEquals(85360.8, BroadcastAlgorithm.LINEAR.cost(GIGE, 20, 524288), 0.05);
    assertEquals(18114.4, BroadcastAlgorithm.BINOMIAL.cost(GIGE, 20, 524288), 0.05);
    assertEquals(45060.9, BroadcastAlgorithm.BINARY.cost(GIGE, 20, 524288), 0.05);
    BroadcastAlgorithm.Plan pipe = BroadcastAlgorithm.PIPELINE.plan(GIGE, 20, 524288);
    assertEquals(7027.3, pipe.time(), 0.05);
    assertEquals(90, pipe.segments());
  }

  private static BroadcastAlgorithm winner(int p, double m) {
    ModelSelector s = new ModelSelector(List.of(GIGE));
    return s.choose(List.of(), p, m).algorithm();
  }

  @Test
  void choose_table4Sizes_binomialSmallPipelineLarge() {
    for (int p : new int[] {7, 11, 19, 20}) {
      assertEquals(BroadcastAlgorithm.BINOMIAL, winner(p, 8192), "P=" + p);
      assertEquals(BroadcastAlgorithm.PIPELINE, winner(p, 524288), "P=" + p);
    }
    assertEquals(BroadcastAlgorithm.BINOMIAL, winner(20, 32 * 1024));
    assertEquals(BroadcastAlgorithm.PIPELINE, winner(20, 48 * 1024));
  }

  @Test
  void cost_singleMachine_isZeroForEveryAlgorithm() {
    for (BroadcastAlgorithm a : BroadcastAlgorithm.values()) {
      assertEquals(0, a.cost(GIGE, 1, 524288));
    }
  }

  @Test
  void fit_measurementsFromPLogP_choosesPLogPOverHockneyAndLogP() {
    // The "truth" is pLogP; Hockney without the per-message gap and LogP with 8-byte words
    // both mispredict, so Poly-adapt-1 must pick pLogP for every algorithm measured.
    CommModel hockney = CommModel.hockney(30, 117);
    CommModel logp = CommModel.logP(30, 2, 5, 8);
    List<ModelSelector.Measurement> base = new ArrayList<>();
    for (BroadcastAlgorithm a : BroadcastAlgorithm.values()) {
      for (double m : new double[] {1024, 8192, 65536, 524288}) {
        base.add(new ModelSelector.Measurement(a, 20, m, a.cost(GIGE, 20, m)));
      }
    }
    Map<BroadcastAlgorithm, ModelSelector.Fit> fits =
        new ModelSelector(List.of(hockney, logp, GIGE)).fit(base);
    for (ModelSelector.Fit f : fits.values()) {
      assertEquals("pLogP", f.model().name());
      assertEquals(0, f.meanRelativeError(), 1e-12);
    }
    assertEquals(BroadcastAlgorithm.PIPELINE, ModelSelector.choose(fits, 20, 524288).algorithm());
  }

  @Test
  void gap_logGPAndPLogPTable_interpolateAsDocumented() {
    CommModel loggp = CommModel.logGP(5, 1, 2, 0.01);
    assertEquals(2 + 999 * 0.01, loggp.gap(1000), 1e-12);
    assertEquals(7, loggp.latency(), 1e-12);
    PLogPModel table = new PLogPModel(30, new double[] {0, 1000, 2000}, new double[] {10, 20, 40});
    assertEquals(15, table.gap(500), 1e-12);
    assertEquals(60, table.gap(3000), 1e-12); // extrapolated from the last two points
    assertTrue(table.gap(1500) > table.gap(1000));
  }
}
