package org.netweather.benchmarks.forecast;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.netweather.forecaster.battery.Battery;
import org.netweather.forecaster.battery.BatteryLayout;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one measurement through a whole battery (every member, the error ledger, both NWS
 * selection hierarchies and the served choice), with the state of 1, 1 000 or 100 000 series live
 * so that the larger counts measure a battery that is not in cache.
 *
 * <p>Each invocation feeds one measurement to each of {@value #BATCH} consecutive series (round
 * robin, as a forecaster following many memory-hosts does) and reports time per measurement.
 * Measurements come from a synthetic trace with level shifts, a daily cycle, noise and spikes,
 * generated once from a fixed seed; every series reads it at its own offset. Batteries are warmed
 * past the burn-in before measuring, so every member takes part in selection.
 *
 * <p>Run from the repository root (the 100 000-series case alone takes a few minutes):
 *
 * <pre>
 *   benchmarks/run jmh BatteryUpdateBenchmark
 *   benchmarks/run jmh BatteryUpdateBenchmark -p series=1000 -p layout=standard
 * </pre>
 *
 * <p>Targets: at most 1 us per measurement at 1 000 series and 2.5 us at 100 000 series on one
 * core, at most 32 KiB of state per series (printed at setup as "state bytes"). The 100 000-series
 * case needs about 3 GB of heap, hence {@code -Xmx6g}.
 *
 * <p>Last results (JMH 1.37, OpenJDK 17.0.15, 2-vCPU Xeon VM, 2 MiB L2 per core, shared with other
 * builds; -wi 2 -i 3 -w 2s -r 2s, so errors are wide; ranges are over repeated runs), ns per
 * measurement:
 *
 * <pre>
 *   layout     state/series    1 series      1 000 series    100 000 series
 *   standard   19 568 B        1 400-1 495   2 050-2 440     4 150-4 430
 *   faithful   14 152 B        1 000-1 105   1 670-1 910     2 835-3 415
 *   with -jvmArgsAppend -XX:+UseTransparentHugePages (fewer TLB misses once state is GBs):
 *   standard                                  2 000-2 030     3 630-3 830
 *   faithful                                  1 510-1 520     2 650-2 890
 * </pre>
 *
 * <p>The version before leader keys, the flat selection, the branch-free lower bound and the
 * cheaper AR forecast, run alternately with this one (-wi 3 -i 5 -w 1s -r 1s, twice each): standard
 * 1 740-1 755 / 2 630-2 975 ns, faithful 1 065-1 155 / 1 630-1 770 ns; this one in the same runs 1
 * 425-1 440 / 2 190-2 375 and 1 015-1 070 / 1 670-1 690. (Before AR by Levinson-Durbin: standard 1
 * 950 / 3 280-3 590 / 5 840 ns and 23 584 B.)
 *
 * <p>With the inverse-error combiners, intervals at any coverage (a sorted error window in place of
 * a quickselect per step) and the 1 024-value horizon history, run alternately with the version
 * before in one sitting while other benchmarks loaded the machine (-wi 3 -i 5 -f 1 -w 1s -r 1s,
 * series=1000, standard, twice each): before 10 494 and 9 735 ns, after 8 260 and 9 038 ns; state
 * 28 248 B per series (19 568 before, which did not count the two intervals' 3.3 KiB).
 *
 * <p>State is within budget; speed is not (targets 1 000 and 2 500 ns). Where the standard
 * battery's time goes when hot, about 1 400 ns: the error ledger (24 members x 7 windows x 2
 * metrics, sums and leader keys, the whole-history and since-burn-in leaders) about 500 ns; the
 * members about 560 ns, of which the two adaptive medians' walks of their sorted windows about 150,
 * inserting into the three sorted windows about 100, AR(16) and AR(4) about 120; selection, oracle
 * and the served choice about 250 ns. Beyond cache, an update touches about 8 KB in some 130 cache
 * lines (error sums 2.7 KB, totals, the new and six leaving ring rows, the sorted windows, the
 * member objects), and at 100 000 series that is two thirds of the time.
 *
 * <p>Tried and dropped, so nobody repeats them: updating each window's sums and finding its leaders
 * in one fused loop (slower with either leader scan); scanning each range as two halves side by
 * side; checking each long window's last leader first and rescanning only on a change (leaders of
 * windows of 10 or more change on 7-35% of steps, yet the varying loop exits mispredict as often as
 * the plain scan did: no gain); the incubating Vector API of JDK 17 (AVX-512 lanes for sums and
 * leaders: 1 140 against 800 ns, its reductions and masks are not all intrinsified in 17); reading
 * the one-step window from the ring instead of keeping its sums (no measurable change); following
 * the adaptive medians' candidate windows incrementally from step to step (every data-dependent
 * branch of the update mispredicts, and the window moves on half the steps, forcing a fresh walk:
 * slower than the branch-free walk of three); finding the three medians' positions by integer
 * counting with no branch but the loop's (no change); clearing a negative sum's sign bit instead of
 * clamping it in the leader keys (no change); plain compares instead of Math.min/max (C2 turns them
 * into branches that mispredict on noisy data; Math.min/max are branch-free intrinsics, slow only
 * as long dependent chains). C2 in JDK 17 vectorizes none of these loops: the window sums read two
 * rows of one array, the errors are floats, and reductions to an index are beyond it. Giving it
 * what it can vectorize (separate arrays per metric, a ring of doubles) speeds the six sliding
 * windows' sums from about 172 to 125 ns: loops of 24 members are too short for 8-lane vectors to
 * pay, and the ring of doubles would cost 9.7 KB more per series; not adopted. A newer JVM does not
 * help the code as it is: the same jar on JDK 25 (JMH's -jvm option) ran 1 541 / 2 034 ns standard
 * and 1 029 / 1 492 ns faithful (1 and 1 000 series) against 1 468 / 2 145 and 1 002 / 1 679 on JDK
 * 17 in the same run. Even the faithful 18 alone stay above 1 us at 1 000 series on this machine.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+UseParallelGC"})
public class BatteryUpdateBenchmark {
  static final int BATCH = 1000;
  private static final int TRACE = 1 << 14;

  /** Number of series with live state. */
  @Param({"1", "1000", "100000"})
  public int series;

  /** {@code standard}: 18 NWS primaries + extended members; {@code faithful}: the 18 alone. */
  @Param({"standard", "faithful"})
  public String layout;

  private Battery[] batteries;
  private double[] trace;
  private int next; // next series to update
  private long step; // measurements fed per series, roughly

  @Setup(Level.Trial)
  public void setUp() {
    BatteryLayout chosen =
        layout.equals("faithful") ? BatteryLayout.faithful() : BatteryLayout.standard();
    trace = syntheticTrace(TRACE, 42);
    batteries = new Battery[series];
    int warm = chosen.burnIn() + 150;
    for (int s = 0; s < series; s++) {
      batteries[s] = chosen.newBattery();
      for (int t = 0; t < warm; t++) {
        batteries[s].observe(valueOf(s, t));
      }
    }
    step = warm;
    System.out.println("state bytes per series (" + layout + "): " + chosen.stateBytesPerSeries());
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long observe() {
    Battery[] all = batteries;
    int s = next;
    for (int k = 0; k < BATCH; k++) {
      all[s].observe(valueOf(s, step));
      if (++s == all.length) {
        s = 0;
        step++;
      }
    }
    next = s;
    return all[s].count();
  }

  private double valueOf(int series, long t) {
    return trace[(int) ((t + 7919L * series) & (TRACE - 1))];
  }

  /** Level shifts, a cycle of 288 steps (a day of 5-minute samples), noise and rare spikes. */
  static double[] syntheticTrace(int length, long seed) {
    Random random = new Random(seed);
    double[] out = new double[length];
    double level = 50;
    double ar = 0;
    for (int t = 0; t < length; t++) {
      if (random.nextInt(500) == 0) {
        level = 10 + 80 * random.nextDouble();
      }
      ar = 0.8 * ar + random.nextGaussian() * 2;
      double spike = random.nextInt(200) == 0 ? 40 * random.nextDouble() : 0;
      out[t] = level + 10 * Math.sin(2 * Math.PI * t / 288) + ar + spike;
    }
    return out;
  }
}
