package org.netweather.scheduler.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * Places filter copies by list scheduling on earliest finish time, modelling shared CPUs and
 * dedicated point-to-point links (FCP).
 *
 * <pre>
 * Spencer, Ferreira, Beynon, Kurc, Catalyurek, Sussman, Saltz, "Executing multiple pipelined
 * data analysis operations in the Grid", SC'02, §4 (Figure 4; equations 1, 2):
 *   for f_i in rank order:
 *     n_i = ceil(sum of producer rates / per-copy consumption rate)   (transparent copies)
 *     for each copy: host = pinned ? pinned : argmin_h EFT(copy on h); h.Map(copy)
 *   EST = max_p (EWT_p + lat(p,h) + vcyc_p / bw(p,h))
 *   EFT = max(EFT' = EST + compute / CPU left on h,  EFT'' = last input's arrival + 1 cycle)
 *   EWT = EST + (EFT − EST) · t_writefirst / t_process
 * Links are point-to-point: FCP cannot see that several streams share a WAN segment, which is
 * why the paper kept it inside single clusters (docs/schedulers/pipelines.md; case D4).
 * Each copy takes an equal share of the filter's cycles, as demand-driven distribution over
 * equal copies would; mapping a copy takes its busy fraction of the host's CPU and its input
 * rate off each producer link.
 * </pre>
 */
public final class FcpScheduler {
  private FcpScheduler() {}

  public static Placement schedule(Pipeline pipeline, Topology topo) {
    int n = topo.size();
    double[] cpuLeft = new double[n];
    for (int h = 0; h < n; h++) {
      cpuLeft[h] = topo.speed(h);
    }
    int[] mapped = new int[n];
    double[][] bwLeft = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        bwLeft[a][b] = topo.bandwidth(a, b);
      }
    }
    List<List<Placement.Copy>> copies = new ArrayList<>();
    double[] stageRates = new double[pipeline.size()];
    for (int i = 0; i < pipeline.size(); i++) {
      Filter f = pipeline.filter(i);
      FilterStats s = f.stats();
      List<Placement.Copy> prev = i == 0 ? List.of() : copies.get(i - 1);
      FilterStats ps = i == 0 ? null : pipeline.filter(i - 1).stats();
      int count = copyCount(f, prev, ps, n);
      List<Placement.Copy> mine = new ArrayList<>();
      for (int c = 0; c < count; c++) {
        double share = 1.0 / count;
        Placement.Copy best = null;
        if (f.isPinned()) {
          int h = host(topo, f.pinned().get(c));
          best = estimate(i, h, topo, s, share, prev, ps, cpuLeft, mapped, bwLeft);
        } else {
          for (int h = 0; h < n; h++) {
            Placement.Copy e = estimate(i, h, topo, s, share, prev, ps, cpuLeft, mapped, bwLeft);
            if (e != null && (best == null || e.eft() < best.eft())) {
              best = e;
            }
          }
        }
        if (best == null) {
          throw new IllegalArgumentException(
              "filter "
                  + f.name()
                  + ": no host can run it "
                  + "(no CPU left or no link from its producers)");
        }
        map(best, s, prev, cpuLeft, bwLeft);
        mapped[best.host()]++;
        mine.add(best);
      }
      copies.add(mine);
      double first = mine.stream().mapToDouble(Placement.Copy::est).min().orElse(0);
      double last = mine.stream().mapToDouble(Placement.Copy::eft).max().orElse(0);
      double bytes = i == 0 ? s.outBytes() : s.inBytes();
      stageRates[i] = bytes / Math.max(last - first, 1e-12);
    }
    double end =
        copies.get(copies.size() - 1).stream().mapToDouble(Placement.Copy::eft).max().orElse(0);
    return new Placement("fcp", copies, end, stageRates, List.of());
  }

  private static int host(Topology topo, String name) {
    int h = topo.indexOf(name);
    if (h < 0) {
      throw new IllegalArgumentException("pinned host '" + name + "' is not in the snapshot");
    }
    return h;
  }

  /** Equation (1) on the producers against the tuning-run consumption rate of one copy. */
  static int copyCount(Filter f, List<Placement.Copy> prev, FilterStats ps, int hosts) {
    if (f.isPinned()) {
      return f.pinned().size();
    }
    int count = 1;
    if (ps != null) {
      double produced = 0;
      for (Placement.Copy p : prev) {
        produced += ps.outBuffers() * p.share() / Math.max(p.eft() - p.est(), 1e-12);
      }
      double perCopy = f.stats().inBuffers() / f.stats().tCompute();
      count = (int) Math.ceil(produced / perCopy - 1e-9);
    }
    count = Math.max(1, Math.min(count, hosts));
    return f.maxCopies() > 0 ? Math.min(count, f.maxCopies()) : count;
  }

  private static Placement.Copy estimate(
      int i,
      int h,
      Topology topo,
      FilterStats s,
      double share,
      List<Placement.Copy> prev,
      FilterStats ps,
      double[] cpuLeft,
      int[] mapped,
      double[][] bwLeft) {
    // A fully used host still shares its CPU: with k copies already there, a new one gets at
    // least speed/(k+1), as a processor-sharing OS would give it.
    double cpu = Math.max(cpuLeft[h], topo.speed(h) / (mapped[h] + 1));
    if (!(cpu > 1e-9)) {
      return null;
    }
    double cycles = s.cycles() * share;
    double compute = cycles * s.computePerCycle() / cpu;
    double est = 0;
    double lastInput = 0;
    for (Placement.Copy p : prev) {
      double bw = bwLeft[p.host()][h];
      if (!(bw > 0)) {
        return null;
      }
      double lat = topo.latency(p.host(), h);
      est = Math.max(est, p.ewt() + lat + ps.outBytesPerBuffer() / bw);
      // This copy's part of p's output: demand-driven spreads p's buffers over all consumers.
      double bytes = s.inBytes() * share * p.share();
      lastInput = Math.max(lastInput, Math.max(p.eft(), p.ewt() + bytes / bw) + lat);
    }
    double eft1 = est + compute;
    double eft2 = prev.isEmpty() ? 0 : lastInput + s.computePerCycle() / cpu;
    double eft = Math.max(eft1, eft2);
    double ewt = est + (eft - est) * s.writeFraction();
    return new Placement.Copy(i, h, topo.name(h), est, eft, ewt, share);
  }

  private static void map(
      Placement.Copy c,
      FilterStats s,
      List<Placement.Copy> prev,
      double[] cpuLeft,
      double[][] bwLeft) {
    double span = Math.max(c.eft() - c.est(), 1e-12);
    double compute = s.cycles() * c.share() * s.computePerCycle();
    // Busy fraction of the host, in speed units, is no longer available to later copies.
    cpuLeft[c.host()] = Math.max(0, cpuLeft[c.host()] - compute / span);
    for (Placement.Copy p : prev) {
      if (p.host() != c.host()) {
        double bytes = s.inBytes() * c.share() * p.share();
        bwLeft[p.host()][c.host()] = Math.max(0, bwLeft[p.host()][c.host()] - bytes / span);
      }
    }
  }
}
