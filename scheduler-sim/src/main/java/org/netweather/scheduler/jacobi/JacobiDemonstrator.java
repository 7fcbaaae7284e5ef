package org.netweather.scheduler.jacobi;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.netweather.scheduler.frame.ResourceSnapshot;
import org.netweather.scheduler.frame.SnapshotReader;

/**
 * Runs real Jacobi sweeps on local threads with a schedule's strip widths and compares the measured
 * iteration time with the model's prediction.
 *
 * <p>The hosts of a schedule are usually elsewhere, so this emulates them on this machine at a
 * common scale s = (local seconds per point) / (fastest host's P): strip i updates its columns for
 * real, {@code P_i / P_min} times over (the fractional part on a share of its rows), then copies
 * its border columns and waits out {@code s·C_i} for the rest of its border exchange. The model
 * then predicts {@code s·T_i} for every strip, and the slowest strip plus the barrier is the
 * iteration. What this checks is the balance: widths that the model says finish together must
 * finish together when the work is real. It is only meaningful with no more strips than free cores,
 * which the report states; what the model leaves out (strips sharing the memory bus, the barrier
 * itself) shows up as measured above predicted.
 *
 * <p>Seconds per point are calibrated on whole-grid sweeps, and the strips meet at a spinning
 * barrier: a parked thread's wake-up can cost as much as a small strip's iteration.
 *
 * <pre>
 *   java -cp ... org.netweather.scheduler.jacobi.JacobiDemonstrator SNAPSHOT.json SIZE [ITERATIONS]
 * </pre>
 */
public final class JacobiDemonstrator {
  private JacobiDemonstrator() {}

  /**
   * What one demonstration measured, all times in local seconds per iteration.
   *
   * @param scale local seconds per modelled second
   * @param cores processors available to this JVM
   */
  public record Report(
      int size,
      int iterations,
      double localSecondsPerPoint,
      double scale,
      int cores,
      List<StripRun> strips,
      double predictedSeconds,
      double measuredSeconds) {}

  /** One strip: its width, emulated slowdown and predicted and measured busy time. */
  public record StripRun(
      String host, int width, double slowdown, double predictedSeconds, double measuredSeconds) {}

  /** Demonstrates {@code schedule} computed from {@code model}, for {@code iterations}. */
  public static Report run(JacobiSchedule schedule, StripModel model, int iterations) {
    if (!schedule.feasible()) {
      throw new IllegalArgumentException("nothing to demonstrate: no feasible schedule");
    }
    int n = schedule.size();
    long bytes = 16L * n * n;
    if (bytes > Runtime.getRuntime().maxMemory() / 2) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "a %dx%d grid needs %d MiB here, more than half this JVM's heap; demonstrate a smaller "
                  + "--size",
              n,
              n,
              bytes >> 20));
    }
    int k = schedule.hosts().size();
    int[] set = schedule.hosts().stream().mapToInt(model.snapshot()::indexOf).toArray();
    double[] p = model.pointSeconds(set);
    double[] c = model.commSeconds(set);
    double pMin = Arrays.stream(p).min().orElseThrow();
    double local = calibrate(n);
    double scale = local / pMin;
    int[] first = new int[k + 1];
    for (int i = 0; i < k; i++) {
      first[i + 1] = first[i] + schedule.widths().get(i);
    }
    Sweep sweep = new Sweep(n, iterations, first, p, pMin, c, scale);
    sweep.run();
    List<StripRun> strips = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      strips.add(
          new StripRun(
              schedule.hosts().get(i),
              schedule.widths().get(i),
              p[i] / pMin,
              scale * schedule.stripSeconds().get(i),
              sweep.busy[i] / sweep.counted));
    }
    return new Report(
        n,
        iterations,
        local,
        scale,
        Runtime.getRuntime().availableProcessors(),
        strips,
        scale * schedule.predictedSeconds(),
        sweep.wall / sweep.counted);
  }

  /** Prints a report as a table. */
  public static void print(Report r, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "demonstration: %d iterations of %dx%d on %d local threads "
            + "(%d cores); local %.3g s/point, 1 modelled s = %.4g local s%n",
        r.iterations(),
        r.size(),
        r.size(),
        r.strips().size(),
        r.cores(),
        r.localSecondsPerPoint(),
        r.scale());
    if (r.strips().size() > r.cores()) {
      out.println(
          "warning: more strips than cores; threads share CPUs, so measured times "
              + "include that contention and the model does not");
    }
    out.printf(
        "%-12s %7s %9s %14s %14s%n", "HOST", "WIDTH", "SLOWDOWN", "PREDICTED (s)", "MEASURED (s)");
    for (StripRun s : r.strips()) {
      out.printf(
          Locale.ROOT,
          "%-12s %7d %9.3f %14.6f %14.6f%n",
          s.host(),
          s.width(),
          s.slowdown(),
          s.predictedSeconds(),
          s.measuredSeconds());
    }
    out.printf(
        Locale.ROOT,
        "iteration: predicted %.6f s, measured %.6f s (ratio %.3f)%n",
        r.predictedSeconds(),
        r.measuredSeconds(),
        r.measuredSeconds() / r.predictedSeconds());
    out.flush();
  }

  /**
   * Local seconds to update one point: the median of single-threaded sweeps over the whole grid,
   * after two warm-up sweeps. Whole-grid sweeps, not a cache-sized block, because the strips stream
   * through memory too.
   */
  static double calibrate(int n) {
    double[] a = new double[n * n];
    double[] b = new double[n * n];
    Arrays.fill(a, 1);
    double[] samples = new double[5];
    for (int rep = -2; rep < samples.length; rep++) {
      long t0 = System.nanoTime();
      update(a, b, n, 0, n, 1.0);
      long t1 = System.nanoTime();
      if (rep >= 0) {
        samples[rep] = (t1 - t0) / 1e9 / ((double) n * n);
      }
      double[] t = a;
      a = b;
      b = t;
    }
    Arrays.sort(samples);
    return samples[samples.length / 2];
  }

  /**
   * One Jacobi update of columns [from, to) of {@code src} into {@code dst}, repeated {@code work}
   * times (the fraction on the top share of rows). Edges are fixed boundaries.
   */
  static void update(double[] src, double[] dst, int n, int from, int to, double work) {
    int whole = (int) Math.floor(work);
    int partRows = (int) Math.round((work - whole) * n);
    for (int rep = 0; rep <= whole; rep++) {
      int rows = rep < whole ? n : partRows;
      for (int r = 0; r < rows; r++) {
        int row = r * n;
        for (int col = from; col < to; col++) {
          int at = row + col;
          if (r == 0 || r == n - 1 || col == 0 || col == n - 1) {
            dst[at] = src[at];
          } else {
            dst[at] = 0.25 * (src[at - n] + src[at + n] + src[at - 1] + src[at + 1]);
          }
        }
      }
    }
  }

  /** The threads of one demonstration and what they measured. */
  private static final class Sweep {
    final int n;
    final int iterations;
    final int warmup;
    final int[] first;
    final double[] work;
    final long[] waitNanos;
    final double[] busy;
    double wall;
    int counted;
    double[] src;
    double[] dst;
    long lastTrip;
    int trips;

    Sweep(int n, int iterations, int[] first, double[] p, double pMin, double[] c, double scale) {
      this.n = n;
      this.iterations = iterations;
      this.warmup = Math.max(2, iterations / 5);
      this.first = first;
      int k = p.length;
      work = new double[k];
      waitNanos = new long[k];
      busy = new double[k];
      for (int i = 0; i < k; i++) {
        work[i] = p[i] / pMin;
        waitNanos[i] = Math.round(c[i] * scale * 1e9);
      }
      src = new double[n * n];
      dst = new double[n * n];
      Arrays.fill(src, 1);
    }

    void run() {
      int k = work.length;
      SpinBarrier barrier =
          new SpinBarrier(
              k,
              () -> {
                long now = System.nanoTime();
                if (trips >= warmup) {
                  wall += (now - lastTrip) / 1e9;
                  counted++;
                }
                trips++;
                lastTrip = now;
                double[] t = src;
                src = dst;
                dst = t;
              });
      List<Thread> threads = new ArrayList<>();
      Throwable[] failure = new Throwable[1];
      lastTrip = System.nanoTime();
      for (int i = 0; i < k; i++) {
        int strip = i;
        Thread t =
            new Thread(
                () -> {
                  try {
                    for (int it = 0; it < warmup + iterations; it++) {
                      long t0 = System.nanoTime();
                      update(src, dst, n, first[strip], first[strip + 1], work[strip]);
                      // The border exchange: real copies are free in shared memory, so wait out the
                      // modelled transfer time instead (spinning: sleeps overshoot at this scale).
                      long until = System.nanoTime() + waitNanos[strip];
                      while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                      }
                      if (it >= warmup) {
                        busy[strip] += (System.nanoTime() - t0) / 1e9;
                      }
                      barrier.await();
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } catch (RuntimeException e) {
                    barrier.breakIt();
                    failure[0] = e;
                  }
                },
                "jacobi-strip-" + i);
        threads.add(t);
        t.start();
      }
      for (Thread t : threads) {
        try {
          t.join();
        } catch (InterruptedException e) {
          threads.forEach(Thread::interrupt);
          Thread.currentThread().interrupt();
          throw new IllegalStateException("demonstration interrupted");
        }
      }
      if (failure[0] != null) {
        throw new IllegalStateException("demonstration failed: " + failure[0], failure[0]);
      }
    }
  }

  /**
   * A barrier that spins (then yields) instead of parking: with one thread per core, a parked
   * thread's wake-up costs as much as a small strip's whole iteration, and that cost belongs to the
   * JVM, not to the schedule being checked.
   */
  private static final class SpinBarrier {
    private final int parties;
    private final Runnable action;
    private final AtomicInteger arrived = new AtomicInteger();
    private volatile int generation;
    private volatile boolean broken;

    SpinBarrier(int parties, Runnable action) {
      this.parties = parties;
      this.action = action;
    }

    @SuppressWarnings("ThreadPriorityCheck") // yield only after a long spin, to let others run
    void await() throws InterruptedException {
      int gen = generation;
      if (arrived.incrementAndGet() == parties) {
        arrived.set(0);
        action.run();
        generation = gen + 1; // volatile write publishes the action's effects
        return;
      }
      for (int spins = 0; generation == gen; spins++) {
        if (broken || Thread.interrupted()) {
          throw new InterruptedException("demonstration stopped");
        }
        if (spins < 20_000) {
          Thread.onSpinWait();
        } else {
          Thread.yield();
        }
      }
    }

    void breakIt() {
      broken = true;
    }
  }

  /** Schedules {@code SNAPSHOT} for {@code SIZE} with the default options and demonstrates it. */
  public static void main(String[] args) {
    if (args.length < 2) {
      System.err.println("usage: JacobiDemonstrator SNAPSHOT.json SIZE [ITERATIONS]");
      System.exit(2);
    }
    ResourceSnapshot snapshot = SnapshotReader.read(Path.of(args[0]));
    JacobiProblem problem = JacobiProblem.from(snapshot, Integer.parseInt(args[1]));
    int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    JacobiOptions options = JacobiOptions.defaults();
    JacobiSchedule schedule = JacobiScheduler.schedule(snapshot, problem, options);
    StripModel model = new StripModel(snapshot, problem, options.errorMargin());
    print(
        run(schedule, model, iterations),
        new PrintWriter(System.out, true, Charset.defaultCharset()));
  }
}
