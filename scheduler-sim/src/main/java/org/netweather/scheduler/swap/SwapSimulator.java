package org.netweather.scheduler.swap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Discrete-event simulation of an over-allocated iterative application under a swap policy: the
 * experiment of docs/schedulers/swapping.md, "The simulator".
 *
 * <pre>
 * - H hosts, p active; an iteration takes W / min over active of (speed · 1/(1 + bg)) + comm.
 * - bg_h(t): ON/OFF background run-queue ({@link LoadTrace}), one random stream per host, so
 *   every policy sees the same traces (common random numbers).
 * - A Unix 1-minute exponentially smoothed load average that counts our own process on active
 *   hosts; measured every {@code period} s with Gaussian noise σ.
 * - Decisions at the first iteration boundary after a new measurement; a swap stalls the
 *   application for C_swap.
 * - Policies: "none" (keep the initial best set), any {@link SwapPolicy}, and "oracle" (the best
 *   p hosts every iteration, free), a lower bound.
 * </pre>
 */
public final class SwapSimulator {
  private SwapSimulator() {}

  /** One run: makespan (s) and swaps made. */
  public record Run(double makespan, int swaps) {}

  /** Simulates {@code policy} (null = none) on one seed. */
  public static Run run(SwapScenario sc, SwapPolicy policy, long seed, double cooldownFactor) {
    Random setup = new Random(seed);
    int n = sc.hosts();
    double[] speed = new double[n];
    LoadTrace[] bg = new LoadTrace[n];
    List<String> names = new ArrayList<>();
    for (int h = 0; h < n; h++) {
      speed[h] = 1 + sc.heterogeneity() * (2 * setup.nextDouble() - 1);
      bg[h] =
          new LoadTrace(setup.nextLong(), sc.onMean(), sc.offMean(), sc.pareto(), sc.continuous());
      names.add("h" + h);
    }
    Random noise = new Random(seed * 31 + 7);
    // Start on the fastest hosts: the "none" baseline is the static initial best set.
    Integer[] order = new Integer[n];
    for (int h = 0; h < n; h++) {
      order[h] = h;
    }
    Arrays.sort(
        order,
        (a, b) -> Double.compare(speed[b] / (1 + bg[b].at(0)), speed[a] / (1 + bg[a].at(0))));
    List<String> initial = new ArrayList<>();
    for (Integer h : order) {
      initial.add(names.get(h));
    }
    SwapManager manager =
        new SwapManager(
            "sim",
            initial,
            sc.active(),
            policy == null ? new NaivePolicy(false) : policy,
            cooldownFactor);
    boolean[] active = new boolean[n];
    for (int r = 0; r < sc.active(); r++) {
      active[order[r]] = true;
    }
    double[] loadAvg = new double[n];
    for (int h = 0; h < n; h++) {
      loadAvg[h] = bg[h].at(0) + (active[h] ? 1 : 0);
    }
    HostForecaster[] fc = new HostForecaster[n];
    for (int h = 0; h < n; h++) {
      fc[h] = new HostForecaster();
    }
    double[] measured = loadAvg.clone();
    double now = 0;
    double nextMeasure = 0;
    boolean fresh = false;
    int swaps = 0;
    for (int it = 0; it < sc.iterations(); it++) {
      if (policy != null && fresh) {
        fresh = false;
        List<HostView> views = new ArrayList<>();
        for (int h = 0; h < n; h++) {
          views.add(
              new HostView(
                  names.get(h),
                  active[h],
                  measured[h],
                  fc[h].forecast(),
                  fc[h].error(),
                  fc[h].persistence(now, 60)));
        }
        SwapPolicy.Epoch epoch =
            new SwapPolicy.Epoch(
                now,
                views,
                sc.iterations() - it,
                sc.work(),
                sc.comm(),
                0,
                sc.swapCost(),
                (a, b) -> Double.POSITIVE_INFINITY,
                manager.cooldown());
        for (SwapManager.Event e : manager.swapPoint(epoch)) {
          active[names.indexOf(e.out())] = false;
          active[names.indexOf(e.in())] = true;
          swaps++;
          now = advance(now, sc.swapCost(), bg, active, loadAvg);
        }
      }
      double slowest = Double.POSITIVE_INFINITY;
      for (int h = 0; h < n; h++) {
        if (active[h]) {
          slowest = Math.min(slowest, speed[h] / (1 + bg[h].at(now)));
        }
      }
      now = advance(now, sc.work() / slowest + sc.comm(), bg, active, loadAvg);
      if (now >= nextMeasure) {
        for (int h = 0; h < n; h++) {
          measured[h] = Math.max(0, loadAvg[h] + sc.noise() * noise.nextGaussian());
          fc[h].add(now, speed[h] * SelfLoad.availability(measured[h], active[h]));
        }
        nextMeasure = now + sc.period();
        fresh = true;
      }
    }
    return new Run(now, swaps);
  }

  /** The clairvoyant lower bound: the best p hosts every iteration, swaps free. */
  public static double oracle(SwapScenario sc, long seed) {
    Random setup = new Random(seed);
    int n = sc.hosts();
    double[] speed = new double[n];
    LoadTrace[] bg = new LoadTrace[n];
    for (int h = 0; h < n; h++) {
      speed[h] = 1 + sc.heterogeneity() * (2 * setup.nextDouble() - 1);
      bg[h] =
          new LoadTrace(setup.nextLong(), sc.onMean(), sc.offMean(), sc.pareto(), sc.continuous());
    }
    double now = 0;
    double[] rate = new double[n];
    for (int it = 0; it < sc.iterations(); it++) {
      for (int h = 0; h < n; h++) {
        rate[h] = -speed[h] / (1 + bg[h].at(now));
      }
      Arrays.sort(rate);
      now += sc.work() / -rate[sc.active() - 1] + sc.comm();
    }
    return now;
  }

  /** Moves time on by dt, smoothing load averages as Unix does (1-minute constant). */
  private static double advance(
      double now, double dt, LoadTrace[] bg, boolean[] active, double[] loadAvg) {
    double t = now;
    double end = now + dt;
    while (t < end) {
      double step = Math.min(1.0, end - t);
      double decay = Math.exp(-step / 60);
      for (int h = 0; h < loadAvg.length; h++) {
        double q = bg[h].at(t) + (active[h] ? 1 : 0);
        loadAvg[h] = q + (loadAvg[h] - q) * decay;
      }
      t += step;
    }
    return end;
  }

  /** Mean makespan and swap count over seeds 1..seeds for each policy; oracle last. */
  public static String table(List<SwapScenario> scenarios, int seeds) {
    StringBuilder out =
        new StringBuilder(
            String.format(
                "%-4s %14s %14s %14s %14s %8s%n",
                "", "none", "naive", "naive_corr", "FPH", "oracle"));
    for (SwapScenario sc : scenarios) {
      double[] ms = new double[4];
      double[] sw = new double[4];
      double or = 0;
      for (long s = 1; s <= seeds; s++) {
        Run[] runs = {
          run(sc, null, s, 2),
          run(sc, new NaivePolicy(false), s, 2),
          run(sc, new NaivePolicy(true), s, 2),
          run(sc, new FphPolicy(FphParameters.defaults()), s, 2)
        };
        for (int k = 0; k < 4; k++) {
          ms[k] += runs[k].makespan() / seeds;
          sw[k] += (double) runs[k].swaps() / seeds;
        }
        or += oracle(sc, s) / seeds;
      }
      out.append(String.format("%-4s", sc.name()));
      for (int k = 0; k < 4; k++) {
        out.append(String.format(" %7.0f (%4.0f)", ms[k], sw[k]));
      }
      out.append(String.format(" %8.0f%n", or));
    }
    return out.toString();
  }

  /** Prints the §5d table: {@code java ...SwapSimulator [seeds]}. */
  public static void main(String[] args) {
    System.out.print(table(SwapScenario.table(), args.length > 0 ? Integer.parseInt(args[0]) : 10));
  }
}
