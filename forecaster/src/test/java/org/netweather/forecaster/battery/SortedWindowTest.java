package org.netweather.forecaster.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SortedWindowTest {

  /** Median of the last k of {@code history} by sorting a copy: the obvious, slow answer. */
  private static double bruteMedian(List<Double> history, int k) {
    int n = Math.min(k, history.size());
    double[] last = new double[n];
    for (int i = 0; i < n; i++) {
      last[i] = history.get(history.size() - n + i);
    }
    Arrays.sort(last);
    return (last[(n - 1) / 2] + last[n / 2]) / 2;
  }

  private static double bruteTrimmed(List<Double> history, int k, double trim) {
    int n = Math.min(k, history.size());
    double[] last = new double[n];
    for (int i = 0; i < n; i++) {
      last[i] = history.get(history.size() - n + i);
    }
    Arrays.sort(last);
    int drop = (int) (trim * n);
    double sum = 0;
    for (int i = drop; i < n - drop; i++) {
      sum += last[i];
    }
    return sum / (n - 2 * drop);
  }

  @Test
  void queries_onRandomDataWithTies_matchSortingTheSuffix() {
    Random random = new Random(7);
    SortedWindow window = new SortedWindow(51);
    List<Double> history = new ArrayList<>();
    double[] three = new double[3];
    for (int t = 0; t < 3000; t++) {
      double x = random.nextInt(4) == 0 ? 5.0 : random.nextInt(20); // many ties
      window.add(x);
      history.add(x);
      for (int k : new int[] {1, 2, 5, 21, 30, 31, 50, 51}) {
        assertEquals(bruteMedian(history, k), window.medianOfLast(k), 0, "median k=" + k);
        assertEquals(
            bruteTrimmed(history, k, 0.3), window.trimmedMeanOfLast(k, 0.3), 1e-9, "trim k=" + k);
      }
      int w = 1 + random.nextInt(45);
      window.mediansOfLast(w, w + 2, w + 5, three);
      assertEquals(bruteMedian(history, w), three[0], 0);
      assertEquals(bruteMedian(history, w + 2), three[1], 0);
      assertEquals(bruteMedian(history, w + 5), three[2], 0);
      assertEquals(x, window.recent(0), 0);
    }
  }

  @Test
  void offer_fromSeveralSharers_addsEachMeasurementOnce() {
    SortedWindow window = new SortedWindow(5);
    ArrayDeque<Double> values = new ArrayDeque<>(List.of(1.0, 2.0, 3.0));
    long seq = 0;
    for (double v : values) {
      window.offer(seq, v);
      window.offer(seq, v); // a second sharer, same measurement
      seq++;
    }
    assertEquals(3, window.size());
    assertEquals(2.0, window.medianOfLast(5), 0);
  }
}
