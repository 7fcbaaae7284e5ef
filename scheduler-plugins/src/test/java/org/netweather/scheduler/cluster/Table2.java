package org.netweather.scheduler.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * Table 2 of Nasri et al., CCGrid'07 (µs), expanded to 78 hosts as docs/schedulers/clusters.md,
 * worked cases P1 describes.
 */
final class Table2 {
  static final String[] BLOCKS = {"C1", "C21", "C22", "C23", "C3", "C4"};
  static final int[] SIZES = {20, 11, 7, 1, 20, 19};
  static final double[][] LATENCY = {
    {48.39, 6577.49, 6586.49, 6592.51, 5211.94, 8602.73},
    {6577.49, 35.52, 59.96, 59.96, 5387.48, 2736.56},
    {6586.49, 59.96, 60.08, 79.51, 5393.98, 2740.26},
    {6592.51, 59.96, 79.51, 0, 5405.78, 2745.98},
    {5211.94, 5387.48, 5393.98, 5405.78, 26.94, 3630.51},
    {8602.73, 2736.56, 2740.26, 2745.98, 3630.51, 35.04}
  };

  private Table2() {}

  /** The block of each of the 78 hosts. */
  static int[] blocks() {
    int[] b = new int[78];
    int k = 0;
    for (int i = 0; i < SIZES.length; i++) {
      for (int j = 0; j < SIZES[i]; j++) {
        b[k++] = i;
      }
    }
    return b;
  }

  static LatencyMatrix matrix() {
    int[] b = blocks();
    List<String> names = new ArrayList<>();
    double[][] raw = new double[78][78];
    for (int i = 0; i < 78; i++) {
      names.add(BLOCKS[b[i]] + "-" + i);
      for (int j = 0; j < 78; j++) {
        raw[i][j] = i == j ? 0 : LATENCY[b[i]][b[j]];
      }
    }
    return LatencyMatrix.of(names, raw, LatencyMatrix.Symmetry.MAX);
  }
}
