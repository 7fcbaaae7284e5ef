package org.netweather.scheduler.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * Places filter copies by balancing production against consumption rates, modelling shared network
 * segments and a per-filter power cap (BFC).
 *
 * <pre>
 * Spencer et al., SC'02, §5 (Figure 8), with docs/schedulers/pipelines.md's settlements:
 *   for f_i in rank order:
 *     P = production rate of f_{i−1} (buffers/s)
 *     while P > 0 and the cap allows and a free host remains:
 *       for each free h: cr(h) = min(scaled consumption rate on h,
 *                                    remaining bandwidth into h from all producer copies,
 *                                    with shared segments counted once / bytes per buffer)
 *       place a copy on argmax cr; h leaves the free list (one copy per node per group)
 *       decrement h's CPU and every pair and segment on the producer paths by the rate taken
 *       P = P − cr
 * Cap (#1): Σ over copies of power·availability ≤ share_i · total power, share_i =
 *   t_compute,i / Σ_j t_compute,j; the pseudocode's count cap is the filter's maxCopies.
 * Units (#2): cr = min(scr, bw / bytesPerBuffer_{i−1}). Guard (#3): running out of free hosts
 *   with P > 0 is reported as "under-provisioned" instead of looping.
 * BFC does not model a shared CPU: a node holds at most one copy per filter group.
 * Each producer copy's flow to a new copy is taken in proportion to the producer's remaining
 * output, so a segment is never charged more than it carries.
 * </pre>
 */
public final class BfcScheduler {
  private BfcScheduler() {}

  public static Placement schedule(Pipeline pipeline, Topology topo) {
    int n = topo.size();
    double[][] pair = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        pair[a][b] = topo.bandwidth(a, b);
      }
    }
    double[] segment = topo.segments().stream().mapToDouble(SharedSegment::capacity).toArray();
    boolean[] free = new boolean[n];
    java.util.Arrays.fill(free, true);
    double totalPower = 0;
    for (int h = 0; h < n; h++) {
      totalPower += topo.speed(h);
    }
    double totalCompute = pipeline.filters().stream().mapToDouble(f -> f.stats().tCompute()).sum();
    for (Filter f : pipeline.filters()) {
      for (String h : f.pinned()) {
        int k = topo.indexOf(h);
        if (k < 0) {
          throw new IllegalArgumentException("pinned host '" + h + "' is not in the snapshot");
        }
        free[k] = false;
      }
    }
    List<List<Placement.Copy>> copies = new ArrayList<>();
    List<double[]> rates = new ArrayList<>(); // per filter, output buffers/s per copy
    List<String> under = new ArrayList<>();
    double[] stageRates = new double[pipeline.size()];
    for (int i = 0; i < pipeline.size(); i++) {
      Filter f = pipeline.filter(i);
      FilterStats s = f.stats();
      List<Placement.Copy> mine = new ArrayList<>();
      List<Double> inRate = new ArrayList<>();
      if (f.isPinned() || i == 0) {
        List<Integer> hosts = new ArrayList<>();
        if (f.isPinned()) {
          f.pinned().forEach(h -> hosts.add(topo.indexOf(h)));
        } else {
          hosts.add(bestFree(topo, free));
          free[hosts.get(0)] = false;
        }
        for (int h : hosts) {
          // A pinned copy runs at its host's speed: cycles/s = speed · computeRate.
          inRate.add(topo.speed(h) * s.computeRate());
          mine.add(new Placement.Copy(i, h, topo.name(h), 0, 0, 0, 0));
        }
      } else {
        List<Placement.Copy> prev = copies.get(i - 1);
        double[] prevOut = rates.get(i - 1).clone();
        double bytesPerBuffer = pipeline.filter(i - 1).stats().outBytesPerBuffer();
        double p = 0;
        for (double r : prevOut) {
          p += r;
        }
        double cap = s.tCompute() / totalCompute * totalPower;
        double used = 0;
        while (p > 1e-12 && (f.maxCopies() == 0 || mine.size() < f.maxCopies())) {
          int best = -1;
          double bestCr = 0;
          for (int h = 0; h < n; h++) {
            if (!free[h] || used + topo.speed(h) > cap + 1e-9) {
              continue;
            }
            double scr = topo.speed(h) * s.computeRate();
            double bw = inflow(topo, prev, h, pair, segment) / bytesPerBuffer;
            double cr = Math.min(Math.min(scr, bw), p);
            if (cr > bestCr + 1e-12) {
              bestCr = cr;
              best = h;
            }
          }
          if (best < 0) {
            under.add(f.name());
            break;
          }
          take(topo, prev, best, bestCr * bytesPerBuffer, pair, segment);
          free[best] = false;
          used += topo.speed(best);
          mine.add(new Placement.Copy(i, best, topo.name(best), 0, 0, 0, 0));
          inRate.add(bestCr);
          p -= bestCr;
        }
        if (mine.isEmpty()) {
          throw new IllegalArgumentException(
              "filter "
                  + f.name()
                  + ": no host can receive its "
                  + "input (no free host, CPU or bandwidth)");
        }
      }
      double total = inRate.stream().mapToDouble(Double::doubleValue).sum();
      double[] out = new double[mine.size()];
      List<Placement.Copy> timed = new ArrayList<>();
      for (int c = 0; c < mine.size(); c++) {
        out[c] = inRate.get(c) * s.outPerCycle();
        Placement.Copy m = mine.get(c);
        timed.add(
            new Placement.Copy(
                i, m.host(), m.hostName(), 0, 0, 0, total > 0 ? inRate.get(c) / total : 0));
      }
      stageRates[i] =
          total * (i == 0 ? s.outBytesPerBuffer() * s.outPerCycle() : s.inBytesPerBuffer());
      copies.add(timed);
      rates.add(out);
    }
    return timed(pipeline, copies, stageRates, under);
  }

  /** Remaining bytes/s into h from all producer copies, shared segments counted once. */
  private static double inflow(
      Topology topo, List<Placement.Copy> prev, int h, double[][] pair, double[] segment) {
    double[] seg = segment.clone();
    double sum = 0;
    for (int k = 0; k < prev.size(); k++) {
      int src = prev.get(k).host();
      double r = pair[src][h];
      for (int s : topo.segmentsOf(src, h)) {
        r = Math.min(r, seg[s]);
      }
      for (int s : topo.segmentsOf(src, h)) {
        seg[s] -= r;
      }
      sum += r;
    }
    return sum;
  }

  /** Takes {@code bytes}/s into h, spread over producers by what each path can still carry. */
  private static void take(
      Topology topo,
      List<Placement.Copy> prev,
      int h,
      double bytes,
      double[][] pair,
      double[] segment) {
    double left = bytes;
    for (int k = 0; k < prev.size() && left > 1e-12; k++) {
      int src = prev.get(k).host();
      double r = Math.min(pair[src][h], left);
      for (int s : topo.segmentsOf(src, h)) {
        r = Math.min(r, segment[s]);
      }
      if (src != h) {
        pair[src][h] -= r;
      }
      for (int s : topo.segmentsOf(src, h)) {
        segment[s] -= r;
      }
      left -= r;
    }
  }

  private static int bestFree(Topology topo, boolean[] free) {
    int best = -1;
    for (int h = 0; h < topo.size(); h++) {
      if (free[h] && (best < 0 || topo.speed(h) > topo.speed(best))) {
        best = h;
      }
    }
    if (best < 0) {
      throw new IllegalArgumentException("no free host for the source filter");
    }
    return best;
  }

  /** Times from the balanced rates: each stage streams its buffers at its assigned rate. */
  private static Placement timed(
      Pipeline pipeline,
      List<List<Placement.Copy>> copies,
      double[] stageRates,
      List<String> under) {
    List<List<Placement.Copy>> out = new ArrayList<>();
    double start = 0;
    double end = 0;
    for (int i = 0; i < pipeline.size(); i++) {
      FilterStats s = pipeline.filter(i).stats();
      double bytes = i == 0 ? s.outBytes() : s.inBytes();
      // The stage ends no sooner than its producer and no sooner than its own rate allows.
      double duration = bytes / Math.max(stageRates[i], 1e-12);
      end = Math.max(end, start + duration);
      List<Placement.Copy> timed = new ArrayList<>();
      for (Placement.Copy c : copies.get(i)) {
        timed.add(
            new Placement.Copy(
                i,
                c.host(),
                c.hostName(),
                start,
                end,
                start + (end - start) * s.writeFraction(),
                c.share()));
      }
      out.add(timed);
      start = timed.stream().mapToDouble(Placement.Copy::ewt).min().orElse(start);
    }
    return new Placement("bfc", out, end, stageRates, under);
  }
}
