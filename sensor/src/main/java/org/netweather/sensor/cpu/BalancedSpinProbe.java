package org.netweather.sensor.cpu;

import java.time.Duration;
import org.netweather.sensor.Ticker;

/**
 * The active CPU probe for machines with a few cores: spins once with one thread and once with one
 * thread per core, and keeps whichever measurement the scheduler's placement cannot skew.
 *
 * <p>The original's probe (docs/measurement.md, "CPU availability", activeCpu.c) spins one process
 * and reports the share of a core it got. On a multi-core host that share depends on where the
 * scheduler put it, not only on how many competitors there are: with two CPU-bound tasks on two
 * cores a third one shares a core with one of them, gets about half of it until a rebalance moves
 * somebody, and a one-second probe reads anywhere from 0.5 to 0.7 where the long-run share is 2/3.
 * The load is lopsided whenever the tasks do not divide evenly over the cores.
 *
 * <pre>
 *   P cores, n CPU-bound competitors, k probe threads, each thread gets s:
 *
 *     s = P / (n + k)   when the tasks spread evenly, i.e. (n + k) mod P = 0
 *     n = P / s - k     the competition the probe saw (less this process's own other
 *                       threads, which used `own` cores meanwhile: n = (P - own) / s - k)
 *     share of one new process = min(1, P / (n + 1))   (PassiveCpu's formula)
 *
 *   The probe spins k = 1 thread for half its length, and k = P threads for the other half (as
 *   the median of three shorter spins). For P = 2 exactly one of
 *   n + 1 and n + 2 is even, so one of the two runs is balanced; its n is used. When neither
 *   run looks balanced (P = 3 or 4, or a reading between whole tasks) the two are averaged.
 * </pre>
 *
 * <p>On two cores a steady load always balances one of the runs, so when neither is, the load
 * changed while the probe ran (a task that came and went during one run: both then read low). The
 * probe then looks once more and uses the second pair, averaging only if that one is unbalanced
 * too. Such a probe costs twice the usual core time; it is rare under steady load.
 *
 * <p>Because it measures rather than assumes, the probe still sees what the passive signals cannot
 * (quotas, nice levels, steal): they lower s in both runs. Above {@value #MAX_CORES} cores a probe
 * per core costs too much and lopsided placements matter less; there, and on one core, it spins a
 * single thread for its whole length, as the original did.
 */
public final class BalancedSpinProbe implements ActiveCpuProbe {
  static final int MAX_CORES = 4;

  /** Spins {@code threads} threads at once for {@code length}. */
  @FunctionalInterface
  public interface Spinner {
    Spin spin(int threads, Duration length);
  }

  /**
   * What one spin saw.
   *
   * @param share mean share of a core each spinning thread got, NaN if it could not measure
   * @param own cores used meanwhile by this process's other threads (a young JVM's compiler, the
   *     garbage collector): the probe's own overhead, which a new process would not meet
   */
  public record Spin(double share, double own) {}

  private final Duration length;
  private final int cores;
  private final Spinner spinner;

  /** A probe of {@code length} on the cores this JVM may use, spinning real threads. */
  public static BalancedSpinProbe create(Duration length) {
    return new BalancedSpinProbe(
        length, Runtime.getRuntime().availableProcessors(), new ThreadSpinner(Ticker.system()));
  }

  public BalancedSpinProbe(Duration length, int cores, Spinner spinner) {
    if (length.isNegative() || length.isZero()) {
      throw new IllegalArgumentException("probe length must be positive, was " + length);
    }
    if (cores < 1) {
      throw new IllegalArgumentException("cores must be >= 1, was " + cores);
    }
    this.length = length;
    this.cores = cores;
    this.spinner = spinner;
  }

  private boolean balances() {
    return cores > 1 && cores <= MAX_CORES;
  }

  @Override
  public double probe() {
    if (!balances()) {
      Spin only = spinner.spin(1, length);
      return Double.isNaN(only.share()) ? Double.NaN : share(competitors(only, 1));
    }
    Competition seen = look();
    if (seen != null && cores == 2 && Double.isNaN(seen.balanced())) {
      Competition again = look();
      seen = again == null ? seen : again; // a failed second look keeps the first
    }
    if (seen == null) {
      return Double.NaN;
    }
    double n = seen.balanced();
    return share(Double.isNaN(n) ? (seen.one() + seen.all()) / 2 : n);
  }

  /** Competitors implied by a one-thread run and a one-per-core run; null if a spin failed. */
  private Competition look() {
    Duration half = length.dividedBy(2);
    Spin one = spinner.spin(1, half);
    Spin all = medianOfThree(half.dividedBy(3));
    if (Double.isNaN(one.share()) || Double.isNaN(all.share())) {
      return null;
    }
    return new Competition(competitors(one, 1), competitors(all, cores), cores);
  }

  /** Competitors as the one-thread run and the one-per-core run saw them. */
  private record Competition(double one, double all, int cores) {
    /** The competitors of a balanced run, the per-core one first; NaN if neither balanced. */
    double balanced() {
      return balanced(all, cores) ? all : balanced(one, 1) ? one : Double.NaN;
    }

    /** Whether n competitors and k probe threads divide evenly over the cores. */
    private boolean balanced(double n, int k) {
      return !Double.isInfinite(n) && (Math.round(n) + k) % cores == 0;
    }
  }

  /**
   * The run with one thread per core, as the median of three shorter ones on fresh threads: now and
   * then new threads stay piled on one core for a good part of a spin (reading 0.45 or 0.54 where
   * 0.50 was due), and one such run in three is voted out.
   */
  private Spin medianOfThree(Duration each) {
    Spin a = spinner.spin(cores, each);
    Spin b = spinner.spin(cores, each);
    Spin c = spinner.spin(cores, each);
    if (Double.isNaN(a.share()) || Double.isNaN(b.share()) || Double.isNaN(c.share())) {
      return new Spin(Double.NaN, 0);
    }
    if ((a.share() - b.share()) * (c.share() - a.share()) >= 0) {
      return a;
    }
    if ((b.share() - a.share()) * (c.share() - b.share()) >= 0) {
      return b;
    }
    return c;
  }

  private double share(double competitors) {
    return Math.min(1, cores / (competitors + 1));
  }

  /**
   * Competitors implied by {@code k} threads each getting {@code s.share()} of a core: all runnable
   * tasks got that share, so there were P / share of them; k were the probe's and own / share stood
   * for this process's other threads.
   */
  private double competitors(Spin s, int k) {
    if (s.share() <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    return Math.max(0, (cores - Math.max(0, s.own())) / s.share() - k);
  }

  /**
   * Core time one probe usually burns: half its length on one thread, half on one per core (twice
   * that when a two-core probe has to look again).
   */
  @Override
  public Duration cost() {
    return balances() ? length.dividedBy(2).multipliedBy(1 + cores) : length;
  }
}
