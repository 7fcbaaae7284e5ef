package org.netweather.sensor.plogp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;

/**
 * Measures pLogP parameters (L, g(m), os(m), or(m)) of one link over a range of message sizes.
 *
 * <pre>
 * Kielmann, Bal, Verstoep, "Fast measurement of LogP parameters for message passing
 * platforms", IPDPS'00 workshops; their logp_mpi.c (schedulers.md §4c):
 *   g(0)   saturation: bursts of n 0-byte messages, n doubling, g0 = (T(n) − RTT(0))/(n − 1),
 *          until g0 changes by < 1 % (1.5 % past 64 KiB) and RTT(0) is < 1 % of T(n)
 *   RTT(m) m bytes out, 0 back;  g(m) = RTT(m) − RTT(0) + g(0);  L = RTT(0)/2 − g(0)
 *          [ours] RTT(0) is measured again after saturation, warm, for L and g(m)
 *          (an RTT(m) below RTT(0), noise, is replaced by the smallest RTT(0) seen)
 *   os(m)  the send call's duration;  or(m) the receive call's, after waiting
 *          Δ = max(1.2·RTT(m), 100 × clock overhead) so the message is already there
 *   each timing is repeated until its 95 % confidence half-width / mean < 2·eps
 *   [ours] over the samples within Tukey's far fence (Q3 + 3·IQR): on a shared host a timing
 *          has one-sided outliers (the process was preempted), and a few of them in an RTT(0)
 *          mean shift every g(m) by as much; logp_mpi assumes dedicated nodes
 * Sizes: 0, then minSize·2^j up to maxSize; past maxSize (up to 8·maxSize) doubling goes on
 * while g still departs from the linear extrapolation of the last two sizes; and a midpoint is
 * inserted wherever g, os or or departs from linear extrapolation by more than maxDiff, which
 * finds eager → rendezvous protocol switches.
 * </pre>
 */
public final class PLogPMeasurement {
  private final PLogPChannel channel;
  private final Settings settings;
  private final TreeMap<Integer, double[]> points = new TreeMap<>();   // size → {g, os, or}
  private double rtt0;
  private double rtt0Min = Double.POSITIVE_INFINITY;
  private double g0;

  /**
   * @param eps relative precision of each timing
   * @param maxDiff relative deviation from linear extrapolation that triggers a new size
   * @param maxRepeats cap on repetitions of one timing
   * @param maxSizes cap on measured sizes, so a noisy link cannot make it run forever
   */
  public record Settings(int minSize, int maxSize, double eps, double maxDiff, int maxRepeats,
      int maxSizes) {
    public Settings {
      if (minSize < 1 || maxSize < minSize || eps <= 0 || maxDiff <= 0 || maxRepeats < 1) {
        throw new IllegalArgumentException("pLogP settings: need 1 <= minSize <= maxSize and "
            + "positive eps, maxDiff, maxRepeats");
      }
    }

    public static Settings defaults() {
      return new Settings(1, 256 * 1024, 0.01, 0.1, 50, 64);
    }
  }

  public PLogPMeasurement(PLogPChannel channel, Settings settings) {
    this.channel = channel;
    this.settings = settings;
  }

  public PLogPParameters measure() {
    // Keep the smallest RTT(0) sample: it replaces an RTT(m) that noise pushed below RTT(0).
    rtt0 = roundTrip0();
    g0 = saturatedGap();
    // Again, now that saturation has warmed both ends: this one is the reference of L and every
    // g(m), and a cold first RTT(0) would otherwise make every RTT(m) look shorter.
    rtt0 = roundTrip0();
    points.put(0, new double[] {g0, repeat(() -> channel.sendOverhead(0)),
        receive(0, rtt0)});
    for (long m = settings.minSize(); m <= settings.maxSize(); m *= 2) {
      measureAt((int) m);
    }
    // Past maxSize: go on while the curve is still not linear.
    for (long m = 2L * settings.maxSize(); m <= 8L * settings.maxSize() && m <= Integer.MAX_VALUE
        && points.size() < settings.maxSizes(); m *= 2) {
      measureAt((int) m);
      if (deviation(points.lastKey()) <= settings.maxDiff()) {
        break;
      }
    }
    refine();
    double[] sizes = new double[points.size()];
    double[][] v = new double[3][points.size()];
    int k = 0;
    for (var e : points.entrySet()) {
      sizes[k] = e.getKey();
      for (int j = 0; j < 3; j++) {
        v[j][k] = e.getValue()[j];
      }
      k++;
    }
    return new PLogPParameters(rtt0 / 2 - g0, sizes, v[0], v[1], v[2]);
  }

  private double roundTrip0() {
    return repeat(() -> {
      double t = channel.roundTrip(0);
      rtt0Min = Math.min(rtt0Min, t - channel.clockOverhead());
      return t;
    });
  }

  private void measureAt(int m) {
    double rtt = repeat(() -> channel.roundTrip(m));
    if (rtt < rtt0) {
      rtt = Math.max(rtt, rtt0Min);
    }
    double g = rtt - rtt0 + g0;
    points.put(m, new double[] {g, repeat(() -> channel.sendOverhead(m)), receive(m, rtt)});
  }

  private double receive(int m, double rtt) {
    double wait = Math.max(1.2 * rtt, 100 * channel.clockOverhead());
    return repeat(() -> channel.receiveOverhead(m, wait));
  }

  /** g(0) by saturating the link with ever longer bursts of empty messages. */
  private double saturatedGap() {
    double previous = Double.NaN;
    for (int n = 8; n <= 1 << 16; n *= 2) {
      int count = n;
      double t = repeat(() -> channel.burst(count, 0));
      double g = (t - rtt0) / (count - 1);
      if (!Double.isNaN(previous) && Math.abs(g - previous) <= 0.01 * Math.abs(previous)
          && rtt0 <= 0.01 * t) {
        return g;
      }
      previous = g;
    }
    return previous;
  }

  /** Worst relative deviation of g, os, or at size m from the line through the two before. */
  private double deviation(int m) {
    Integer b = points.lowerKey(m);
    Integer a = b == null ? null : points.lowerKey(b);
    if (a == null) {
      return 0;
    }
    double worst = 0;
    for (int j = 0; j < 3; j++) {
      double va = points.get(a)[j];
      double vb = points.get(b)[j];
      double predicted = vb + (vb - va) * (m - b) / (double) (b - a);
      double actual = points.get(m)[j];
      double scale = Math.max(Math.abs(actual), 1e-12);
      worst = Math.max(worst, Math.abs(actual - predicted) / scale);
    }
    return worst;
  }

  /** Inserts midpoints wherever a measured size departs from extrapolation. */
  private void refine() {
    boolean changed = true;
    while (changed && points.size() < settings.maxSizes()) {
      changed = false;
      List<Integer> sizes = new ArrayList<>(points.keySet());
      for (int i = 2; i < sizes.size() && points.size() < settings.maxSizes(); i++) {
        int lo = sizes.get(i - 1);
        int hi = sizes.get(i);
        int mid = lo + (hi - lo) / 2;
        if (mid > lo && mid < hi && hi - lo > settings.minSize()
            && deviation(hi) > settings.maxDiff()) {
          measureAt(mid);
          changed = true;
          break;
        }
      }
    }
  }

  /**
   * Repeats a timing until the 95 % confidence half-width over the mean is below 2·eps, with
   * the clock overhead subtracted and samples beyond the far fence left out; the mean of the
   * rest is returned.
   */
  double repeat(DoubleSupplier timing) {
    double[] samples = new double[settings.maxRepeats()];
    double clock = channel.clockOverhead();
    int n = 0;
    double mean = 0;
    while (n < settings.maxRepeats()) {
      samples[n++] = timing.getAsDouble() - clock;
      double[] kept = withinFence(samples, n);
      double sum = 0;
      double sq = 0;
      for (double t : kept) {
        sum += t;
        sq += t * t;
      }
      int k = kept.length;
      mean = sum / k;
      double sd = k < 2 ? 0 : Math.sqrt(Math.max(0, (sq - k * mean * mean) / (k - 1)));
      if (k >= 3 && 1.96 * sd / Math.sqrt(k) <= 2 * settings.eps() * Math.abs(mean)) {
        break;
      }
    }
    return mean;
  }

  /** The first n samples without those above Q3 + 3·IQR (all of them below 4 samples). */
  static double[] withinFence(double[] samples, int n) {
    double[] sorted = Arrays.copyOf(samples, n);
    Arrays.sort(sorted);
    if (n < 4) {
      return sorted;
    }
    double q1 = sorted[n / 4];
    double q3 = sorted[(3 * n) / 4];
    double fence = q3 + 3 * (q3 - q1);
    int k = n;
    while (k > 1 && sorted[k - 1] > fence) {
      k--;
    }
    return Arrays.copyOf(sorted, k);
  }
}
