package org.netweather.benchmarks.scheduler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.HostSnapshot;
import org.netweather.api.v1.PairSnapshot;
import org.netweather.api.v1.ResourceForecast;
import org.netweather.scheduler.frame.Estimate;
import org.netweather.scheduler.frame.HostResources;
import org.netweather.scheduler.frame.ResourceSnapshot;
import org.netweather.scheduler.frame.SnapshotConverter;
import org.netweather.scheduler.jacobi.JacobiOptions;
import org.netweather.scheduler.jacobi.JacobiProblem;
import org.netweather.scheduler.jacobi.JacobiSchedule;
import org.netweather.scheduler.jacobi.JacobiScheduler;
import org.netweather.scheduler.tree.ChildPriority;
import org.netweather.scheduler.tree.Protocol;
import org.netweather.scheduler.tree.SendModel;
import org.netweather.scheduler.tree.TaskFarmSimulator;
import org.netweather.scheduler.tree.TaskSpec;
import org.netweather.scheduler.tree.ThroughputBound;
import org.netweather.scheduler.tree.TreeNode;

/**
 * Both scheduler plugins over synthetic 1 000-host inputs; target under 100 ms each.
 *
 * <ul>
 *   <li>Jacobi: 10 sites of 100 hosts (LAN 100–1000 Mbit/s, WAN 5–50 Mbit/s, CPU availability
 *       0.2–1, 0.5–2 µs per point, 256–4096 MiB), N = 20 000, so the memory filter bites; both
 *       solvers. Baseline: one pass over the 10⁶ bandwidth entries, the least any scheduler that
 *       reads the matrix must pay.
 *   <li>Tree: a root, 31 interior nodes and 961 leaves (993 nodes) with random rates and
 *       interference; priorities, exclusions and both bounds. Baseline: one traversal.
 * </ul>
 *
 * Figures are medians of 15 runs after 10 warm-ups. Also printed, not targeted: converting a 1
 * 000-host proto snapshot (10⁶ pairs) to the model, and simulating 10 000 tasks.
 *
 * <pre>
 *   benchmarks/run scheduler.SchedulerBenchmark
 * </pre>
 *
 * <p>Last run (2 shared cores, load average about 5 from concurrent builds, JDK 17): see the
 * closing note of issue 6.
 */
public final class SchedulerBenchmark {
  private static final int HOSTS = 1000;
  private static final int WARMUP = 10;
  private static final int RUNS = 15;

  private SchedulerBenchmark() {}

  public static void main(String[] args) {
    System.out.printf(
        "scheduler benchmark: %d hosts, %d cores, %s%n",
        HOSTS, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    Random random = new Random(42);
    ResourceSnapshot snapshot = cluster(random);
    double scan =
        time(
            "baseline: read the bandwidth matrix once",
            () -> {
              double sum = 0;
              for (int i = 0; i < HOSTS; i++) {
                for (int j = 0; j < HOSTS; j++) {
                  if (i != j) {
                    sum += snapshot.bandwidth(i, j);
                  }
                }
              }
              return sum;
            });
    JacobiProblem problem = JacobiProblem.ofSize(20_000);
    for (JacobiOptions.Solver solver : JacobiOptions.Solver.values()) {
      JacobiOptions options = JacobiOptions.defaults().withSolver(solver);
      JacobiSchedule s = JacobiScheduler.schedule(snapshot, problem, options);
      double ms =
          time(
              "jacobi " + solver + " (N = 20000)",
              () -> JacobiScheduler.schedule(snapshot, problem, options));
      System.out.printf(
          Locale.ROOT,
          "  %.1fx baseline; %d strips, predicted %.4f s, list %d" + " hosts, %d candidates%n",
          ms / scan,
          s.hosts().size(),
          s.predictedSeconds(),
          s.list().size(),
          s.candidates().size());
    }
    ClusterSnapshot proto = proto(snapshot);
    time("proto -> model (10^6 pairs), not targeted", () -> SnapshotConverter.toModel(proto));

    TreeNode root = tree(random);
    int nodes = root.preorder().size();
    double walk =
        time(
            "baseline: one traversal of " + nodes + " nodes",
            () -> {
              double sum = 0;
              for (TreeNode n : root.preorder()) {
                sum += n.computeRate();
              }
              return sum;
            });
    TaskSpec task = new TaskSpec(2, 5);
    double ms =
        time(
            "tree priority + exclusion + both bounds",
            () -> {
              ChildPriority.Ranking r = ChildPriority.rank(root, task, SendModel.MULTI_PORT);
              double m = ThroughputBound.of(root, task, SendModel.MULTI_PORT).tasksPerSecond();
              double s = ThroughputBound.of(root, task, SendModel.SINGLE_PORT).tasksPerSecond();
              return r.priority().size() + m + s;
            });
    ThroughputBound.Result b = ThroughputBound.of(root, task, SendModel.MULTI_PORT);
    System.out.printf(
        Locale.ROOT,
        "  %.1fx baseline; bound %.2f tasks/s, %.3f of RootComputes%n",
        ms / walk,
        b.tasksPerSecond(),
        b.normalisedTime());
    long t0 = System.nanoTime();
    TaskFarmSimulator.Result sim =
        TaskFarmSimulator.run(
            root, task, 10_000, Protocol.IA_MULTI, TaskFarmSimulator.Settings.defaults());
    System.out.printf(
        Locale.ROOT,
        "%-52s %9.1f ms (once; %d sends, makespan %.1f s)%n",
        "simulate 10 000 tasks IA:Multi, not targeted",
        (System.nanoTime() - t0) / 1e6,
        sim.sends(),
        sim.makespan());
  }

  /** Median milliseconds of RUNS calls after WARMUP, printed. */
  private static double time(String what, Supplier<Object> work) {
    Object sink = null;
    for (int i = 0; i < WARMUP; i++) {
      sink = work.get();
    }
    double[] ms = new double[RUNS];
    for (int i = 0; i < RUNS; i++) {
      long t0 = System.nanoTime();
      sink = work.get();
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(ms);
    System.out.printf(
        Locale.ROOT,
        "%-52s %9.2f ms (min %.2f, max %.2f)%s%n",
        what,
        ms[RUNS / 2],
        ms[0],
        ms[RUNS - 1],
        sink == null ? "?" : "");
    return ms[RUNS / 2];
  }

  private static ResourceSnapshot cluster(Random random) {
    ResourceSnapshot.Builder b = ResourceSnapshot.builder("synthetic");
    for (int i = 0; i < HOSTS; i++) {
      double avail = 0.2 + 0.8 * random.nextDouble();
      b.host(
          new HostResources(
              "h" + i,
              Estimate.of(avail, 0.05 * random.nextDouble()),
              Estimate.of((256 + random.nextInt(3841)) * SnapshotConverter.BYTES_PER_MIB),
              Estimate.UNKNOWN,
              Estimate.UNKNOWN,
              Map.of("secondsPerPoint", (0.5 + 1.5 * random.nextDouble()) * 1e-6)));
    }
    for (int i = 0; i < HOSTS; i++) {
      for (int j = 0; j < HOSTS; j++) {
        if (i != j) {
          boolean lan = i / 100 == j / 100;
          double mbit = lan ? 100 + 900 * random.nextDouble() : 5 + 45 * random.nextDouble();
          b.link(
              "h" + i,
              "h" + j,
              Estimate.of(mbit * SnapshotConverter.BYTES_PER_MBIT),
              Estimate.of((lan ? 0.2 : 20) * 1e-3));
        }
      }
    }
    return b.build();
  }

  private static ClusterSnapshot proto(ResourceSnapshot s) {
    ClusterSnapshot.Builder b = ClusterSnapshot.newBuilder().setCluster(s.cluster());
    for (HostResources h : s.hosts()) {
      b.addHosts(
          HostSnapshot.newBuilder()
              .setHost(h.name())
              .setCpuAvailability(forecast(h.cpuAvailability().value()))
              .setMemoryFree(forecast(h.memoryFree().value() / SnapshotConverter.BYTES_PER_MIB))
              .putAllParameters(h.parameters()));
    }
    for (int i = 0; i < s.size(); i++) {
      for (int j = 0; j < s.size(); j++) {
        if (i != j) {
          b.addPairs(
              PairSnapshot.newBuilder()
                  .setSrc(s.host(i).name())
                  .setDst(s.host(j).name())
                  .setBandwidth(forecast(s.bandwidth(i, j) / SnapshotConverter.BYTES_PER_MBIT))
                  .setLatency(forecast(s.latency(i, j) * 1e3)));
        }
      }
    }
    return b.build();
  }

  private static ResourceForecast forecast(double v) {
    return ResourceForecast.newBuilder().setValue(v).build();
  }

  private static TreeNode tree(Random random) {
    List<TreeNode> mids = new ArrayList<>();
    for (int m = 0; m < 31; m++) {
      List<TreeNode> leaves = new ArrayList<>();
      for (int l = 0; l < 31; l++) {
        leaves.add(
            TreeNode.leaf(
                "n" + m + "." + l,
                1 + 20 * random.nextDouble(),
                0.5 + 11 * random.nextDouble(),
                0.01 + 0.06 * random.nextDouble(),
                0.01 + 0.08 * random.nextDouble()));
      }
      mids.add(
          new TreeNode(
              "n" + m,
              1 + 20 * random.nextDouble(),
              1 + 10 * random.nextDouble(),
              0.01 + 0.06 * random.nextDouble(),
              0.01 + 0.08 * random.nextDouble(),
              10.7,
              leaves));
    }
    return TreeNode.root("root", 9, 10.7, mids);
  }
}
