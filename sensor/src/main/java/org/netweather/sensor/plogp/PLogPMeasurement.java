package org.netweather.sensor.plogp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;

/**
 * Measures pLogP parameters (L, g(m), os(m), or(m)) of one link over a range of message sizes.
 * Every duration is in seconds.
 *
 * <pre>
 * Kielmann, Bal, Verstoep, "Fast measurement of LogP parameters for message passing
 * platforms", IPDPS'00 workshops; their logp_mpi.c (docs/measurement.md, "pLogP parameters"):
 *   g(0)   saturation: bursts of n 0-byte messages, n doubling, g0 = (T(n) − RTT(0))/(n − 1),
 *          until g0 changes by < 1 % (1.5 % past 64 KiB) and RTT(0) is < 1 % of T(n)
 *          [ours] should it stay <= 0 (a cold RTT(0) slower than every train), T(n)/n, an
 *          upper bound, stands in
 *   RTT(m) m bytes out, 0 back;  g(m) = RTT(m) − RTT(0) + g(0);  L = RTT(0)/2 − g(0)
 *          [ours] RTT(m) − RTT(0) is the median of differences of round trips of m and of 0
 *          bytes timed in alternation, and is floored at 0 (see below); L's RTT(0) is the
 *          median of all those 0-byte round trips
 *   os(m)  the send call's duration;  or(m) the receive call's, after waiting
 *          Δ = max(1.2·RTT(m), 100 × clock overhead) so the message is already there
 *   g(m) >= os(m), or(m): a message cannot leave sooner than its send call returns, nor be taken
 *          sooner than its receive call; logp_mpi raises g to them under FIXUP_G, and so do we
 *          (and keep g(m) >= that g(0)). L is computed from that g(0) and floored at 0 (logp_mpi:
 *          "L unknown")
 *   each timing is repeated until its 95 % confidence half-width / mean < 2·eps
 *   [ours] over the samples within Tukey's far fence (Q3 + 3·IQR), and its median is taken, not
 *          the mean: on a shared host a timing has one-sided outliers (the process was
 *          preempted, or woken late), and they lift a mean, and with it any g(m) raised to
 *          os(m) or or(m); logp_mpi assumes dedicated nodes
 *   [ours] os(0), or(0) are timed before saturation, and after it 0-byte round trips wait until
 *          the host has settled (see settle())
 * Sizes: 0, then minSize·2^j up to maxSize; past maxSize (up to 8·maxSize) doubling goes on
 * while g still departs from the linear extrapolation of the last two sizes; and a midpoint is
 * inserted wherever g, os or or departs from linear extrapolation by more than maxDiff, which
 * finds eager → rendezvous protocol switches.
 * </pre>
 *
 * <p>Why the paired RTT(0): g(m) − g(0) is a difference of two round trips, which on a fast path is
 * far smaller than their noise. On a shared 2-core host's loopback, g(m) − g(0) is 0-1 µs up to 1
 * KiB while RTT(0) read 14 or 22 µs from one round trip to the next, and for spells of tens of ms
 * (after a saturation burst, or while another process ran) 50-80 µs. Timing RTT(0) once as the
 * reference of all sizes, as logp_mpi does, a reference from such a spell made every later g(m)
 * negative (−10 to −87 µs on loopback). Round trips of 0 and m bytes timed next to each other share
 * the host's state, so the spell cancels out of their difference, and the median of the differences
 * ignores the odd preempted one. What noise is left can still make the difference of a few bytes
 * come out negative; m bytes cannot arrive sooner than 0 bytes, so g(m) >= g(0) and the difference
 * is floored at 0, not reported as a negative gap.
 */
public final class PLogPMeasurement {
  static final int SETTLE_GROUP = 4;
  static final int SETTLE_GROUPS = 64;

  private final PLogPChannel channel;
  private final Settings settings;
  private final TreeMap<Integer, double[]> points = new TreeMap<>(); // size → {g, os, or}

  /** Every 0-byte round trip timed next to an m-byte one: L's RTT(0) is their median. */
  private final List<Double> pairedRtt0 = new ArrayList<>();

  private double rtt0;
  private double g0;

  /**
   * How far a measurement goes: message sizes, precision and caps.
   *
   * @param eps relative precision of each timing
   * @param maxDiff relative deviation from linear extrapolation that triggers a new size
   * @param maxRepeats cap on repetitions of one timing
   * @param maxSizes cap on measured sizes, so a noisy link cannot make it run forever
   */
  public record Settings(
      int minSize, int maxSize, double eps, double maxDiff, int maxRepeats, int maxSizes) {
    public Settings {
      if (minSize < 1 || maxSize < minSize || eps <= 0 || maxDiff <= 0 || maxRepeats < 1) {
        throw new IllegalArgumentException(
            "pLogP settings: need 1 <= minSize <= maxSize and "
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
    // This RTT(0) is for saturation, settling and or(0) only; g(m) and L use the paired ones.
    // os(0) and or(0) before saturation, whose bursts leave the host busy for a while.
    rtt0 = repeat(() -> channel.roundTrip(0));
    double os0 = repeat(() -> channel.sendOverhead(0));
    double or0 = receive(0, rtt0);
    g0 = saturatedGap();
    settle();
    points.put(0, withOverheads(g0, os0, or0));
    for (long m = settings.minSize(); m <= settings.maxSize(); m *= 2) {
      measureAt((int) m);
    }
    // Past maxSize: go on while the curve is still not linear.
    for (long m = 2L * settings.maxSize();
        m <= 8L * settings.maxSize()
            && m <= Integer.MAX_VALUE
            && points.size() < settings.maxSizes();
        m *= 2) {
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
    double roundTrip0 =
        pairedRtt0.isEmpty()
            ? rtt0
            : median(pairedRtt0.stream().mapToDouble(Double::doubleValue).toArray());
    return new PLogPParameters(Math.max(0, roundTrip0 / 2 - v[0][0]), sizes, v[0], v[1], v[2]);
  }

  private void measureAt(int m) {
    double[] rtt = pairedRoundTrip(m);
    // RTT(m) >= RTT(0), see the class comment; and g(m) >= g(0) after the overheads too.
    double g = Math.max(g0 + Math.max(0, rtt[1]), points.get(0)[0]);
    points.put(m, withOverheads(g, repeat(() -> channel.sendOverhead(m)), receive(m, rtt[0])));
  }

  /** {g, os, or} with g raised to the overheads: pLogP has g(m) >= os(m), or(m). */
  private static double[] withOverheads(double g, double os, double or) {
    return new double[] {Math.max(g, Math.max(os, or)), os, or};
  }

  /**
   * Round trips of m and of 0 bytes in alternation (which goes first swaps every pair), until the
   * m-byte ones meet {@link #repeat}'s precision.
   *
   * @return {the median RTT(m), the median of RTT(m) − RTT(0) over the pairs}
   */
  double[] pairedRoundTrip(int m) {
    int max = settings.maxRepeats();
    double[] rtt = new double[max];
    double[] diff = new double[max];
    double clock = channel.clockOverhead();
    int n = 0;
    while (n < max) {
      double zero;
      double full;
      if (n % 2 == 0) {
        zero = channel.roundTrip(0) - clock;
        full = channel.roundTrip(m) - clock;
      } else {
        full = channel.roundTrip(m) - clock;
        zero = channel.roundTrip(0) - clock;
      }
      pairedRtt0.add(zero);
      rtt[n] = full;
      diff[n] = full - zero;
      n++;
      if (precise(rtt, n)) {
        break;
      }
    }
    return new double[] {median(Arrays.copyOf(rtt, n)), median(Arrays.copyOf(diff, n))};
  }

  private double receive(int m, double rtt) {
    double wait = Math.max(1.2 * rtt, 100 * channel.clockOverhead());
    return repeat(() -> channel.receiveOverhead(m, wait));
  }

  /** g(0) by saturating the link with ever longer bursts of empty messages. */
  private double saturatedGap() {
    double previous = Double.NaN;
    double perMessage = Double.NaN;
    for (int n = 8; n <= 1 << 16; n *= 2) {
      int count = n;
      double t = repeat(() -> channel.burst(count, 0));
      double g = (t - rtt0) / (count - 1);
      perMessage = t / count;
      if (!Double.isNaN(previous)
          && Math.abs(g - previous) <= 0.01 * Math.abs(previous)
          && rtt0 <= 0.01 * t) {
        return g > 0 ? g : perMessage;
      }
      previous = g;
    }
    // Not saturated within 64 Ki messages. (T(n) − RTT(0))/(n − 1) <= 0 means RTT(0) was timed
    // slower than the longest train took (a cold start): T(n)/n bounds g(0) from above.
    return previous > 0 ? previous : perMessage;
  }

  /**
   * Unreported 0-byte round trips until the median of {@value #SETTLE_GROUP} in a row is back
   * within 1.5 × RTT(0) from before saturation, at most {@value #SETTLE_GROUPS} groups. Long bursts
   * leave both ends busy for a while (garbage, compilation; on a shared 2-core host round trips
   * took 50-80 µs against 16-23 µs for 10-70 ms after them), and os(m), or(m) timed in that spell
   * would raise g(m) with them.
   */
  private void settle() {
    double[] group = new double[SETTLE_GROUP];
    for (int i = 0; i < SETTLE_GROUPS; i++) {
      for (int j = 0; j < group.length; j++) {
        group[j] = channel.roundTrip(0) - channel.clockOverhead();
      }
      if (median(group) <= 1.5 * rtt0) {
        return;
      }
    }
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
        if (mid > lo
            && mid < hi
            && hi - lo > settings.minSize()
            && deviation(hi) > settings.maxDiff()) {
          measureAt(mid);
          changed = true;
          break;
        }
      }
    }
  }

  /**
   * Repeats a timing until the 95 % confidence half-width over the mean is below 2·eps, with the
   * clock overhead subtracted and samples beyond the far fence left out; the median of all samples
   * is returned.
   */
  double repeat(DoubleSupplier timing) {
    double[] samples = new double[settings.maxRepeats()];
    double clock = channel.clockOverhead();
    int n = 0;
    while (n < settings.maxRepeats()) {
      samples[n++] = timing.getAsDouble() - clock;
      if (precise(samples, n)) {
        break;
      }
    }
    return median(Arrays.copyOf(samples, n));
  }

  /** Whether the first n samples within the far fence give {@link #repeat}'s precision. */
  private boolean precise(double[] samples, int n) {
    double[] kept = withinFence(samples, n);
    int k = kept.length;
    double sum = 0;
    double sq = 0;
    for (double t : kept) {
      sum += t;
      sq += t * t;
    }
    double mean = sum / k;
    double sd = k < 2 ? 0 : Math.sqrt(Math.max(0, (sq - k * mean * mean) / (k - 1)));
    return k >= 3 && 1.96 * sd / Math.sqrt(k) <= 2 * settings.eps() * Math.abs(mean);
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
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
