package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ErrorLedgerTest {

  @Test
  void windowedSums_overThousandsOfSteps_matchDirectSums() {
    int[] windows = {1, 5, 10, 100};
    ErrorLedger ledger = new ErrorLedger(3, windows);
    Random random = new Random(1);
    int steps = 2500; // crosses two rebuilds
    double[][] abs = new double[steps][3];
    double[] forecasts = new double[3];
    for (int t = 0; t < steps; t++) {
      double actual = random.nextGaussian() * (t < 50 ? 1e6 : 1); // big early errors
      for (int i = 0; i < 3; i++) {
        forecasts[i] = random.nextGaussian() * (i + 1);
        abs[t][i] = (float) Math.abs(actual - forecasts[i]);
      }
      ledger.record(forecasts, actual);
      for (int w = 0; w < windows.length; w++) {
        for (int i = 0; i < 3; i++) {
          double sa = 0;
          double sq = 0;
          for (int s = Math.max(0, t + 1 - windows[w]); s <= t; s++) {
            sa += abs[s][i];
            sq += abs[s][i] * abs[s][i];
          }
          // Errors of 1e6 (squares 1e12) early on leave rounding residue of about 1e-16 of
          // those sums in every window sum until the rebuild at step 1024 clears it.
          double tolerance = t + 1 < 1024 ? 0.1 : 1e-9;
          String where = "t=" + t + " w=" + windows[w] + " i=" + i;
          assertEquals(sa, ledger.windowed(ErrorLedger.ABSOLUTE, w, i), tolerance, where);
          assertEquals(sq, ledger.windowed(ErrorLedger.SQUARED, w, i), tolerance, where);
        }
      }
    }
    assertEquals(steps, ledger.steps());
  }

  @Test
  void argmin_onTies_choosesLowestIndex() {
    ErrorLedger ledger = new ErrorLedger(3, new int[] {1});
    ledger.record(new double[] {2, 0, 2}, 1); // errors 1, 1, 1
    assertEquals(0, ledger.argminTotal(ErrorLedger.ABSOLUTE, 0, 3, null));
    assertEquals(1, ledger.argminTotal(ErrorLedger.ABSOLUTE, 1, 3, null));
    assertEquals(0, ledger.argminWindow(ErrorLedger.SQUARED, 0, 0, 3));
  }

  @Test
  void argminTotal_withBaseline_countsOnlyLaterErrors() {
    ErrorLedger ledger = new ErrorLedger(2, new int[0]);
    ledger.record(new double[] {0, 100}, 0); // member 1 is awful early
    double[] baseline = new double[4];
    ledger.copyTotals(baseline);
    ledger.record(new double[] {1, 0}, 0); // then member 1 is better
    assertEquals(0, ledger.argminTotal(ErrorLedger.SQUARED, 0, 2, null));
    assertEquals(1, ledger.argminTotal(ErrorLedger.SQUARED, 0, 2, baseline));
  }

  @Test
  void leaders_overThousandsOfStepsWithTies_matchScansOfBothRanges() {
    checkLeadersAgainstScans(7, 4);
  }

  @Test
  void leaders_ofMoreForecastersThanFiveIndexBitsHold_matchScans() {
    checkLeadersAgainstScans(45, 33); // six index bits; indices 32..44 need the sixth
  }

  @Test
  void leaders_ofSumsOneUlpApart_preferTheLowerIndex() {
    // Rounding noise between two members computing the same quantity must not decide.
    ErrorLedger ledger = new ErrorLedger(2, new int[] {1});
    ledger.record(new double[] {Math.nextUp(1.0), 1.0}, 0);
    assertEquals(0, ledger.leader(ErrorLedger.ABSOLUTE, 0, 0));
    ledger.record(new double[] {2.0, 1.0}, 0); // a real difference still decides
    assertEquals(1, ledger.leader(ErrorLedger.ABSOLUTE, 0, 0));
  }

  private static void checkLeadersAgainstScans(int count, int split) {
    int[] windows = {1, 5, 100};
    ErrorLedger ledger = new ErrorLedger(count, windows, split);
    ErrorLedger whole = new ErrorLedger(count, windows); // one range: leaders over all
    Random random = new Random(3);
    double[] forecasts = new double[count];
    double[] baseline = new double[2 * count];
    for (int t = 0; t < 2500; t++) { // crosses two rebuilds
      double actual = random.nextInt(3);
      for (int i = 0; i < count; i++) {
        forecasts[i] = random.nextInt(4); // small integers: many equal sums
      }
      ledger.record(forecasts, actual);
      whole.record(forecasts, actual);
      if (t == 300) {
        ledger.markBaseline();
        ledger.copyTotals(baseline);
      }
      for (int metric = 0; metric < 2; metric++) {
        String where = "t=" + t + " metric=" + metric;
        for (int w = -1; w < windows.length; w++) {
          assertEquals(scan(ledger, metric, w, 0, split), ledger.leader(metric, w, 0), where);
          assertEquals(scan(ledger, metric, w, split, count), ledger.leader(metric, w, 1), where);
          assertEquals(scan(whole, metric, w, 0, count), whole.leader(metric, w, 0), where);
          assertEquals(count, whole.leader(metric, w, 1), where); // empty range: its start
        }
        if (t >= 300) {
          assertEquals(
              ledger.argminTotal(metric, 0, count, baseline),
              ledger.leaderSinceBaseline(metric),
              where);
        }
      }
    }
  }

  @Test
  void leaders_beforeAnyStep_areEachRangesFirst() {
    ErrorLedger ledger = new ErrorLedger(5, new int[] {1, 10}, 2);
    for (int w = -1; w < 2; w++) {
      assertEquals(0, ledger.leader(ErrorLedger.SQUARED, w, 0));
      assertEquals(2, ledger.leader(ErrorLedger.ABSOLUTE, w, 1));
    }
  }

  private static int scan(ErrorLedger ledger, int metric, int w, int from, int to) {
    return w < 0
        ? ledger.argminTotal(metric, from, to, null)
        : ledger.argminWindow(metric, w, from, to);
  }
}
