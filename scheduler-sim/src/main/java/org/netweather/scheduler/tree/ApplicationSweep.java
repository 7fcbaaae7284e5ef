package org.netweather.scheduler.tree;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The paper's 18 application types on one tree: task sizes 2, 5 and 10 MB times 1, 3, 5, 7, 9 and
 * 11 compute units, each protocol's simulated makespan normalised to RootComputes, beside the
 * steady-state bounds.
 *
 * <p>Kreaseck et al. §4.3 and Figure 5 report this grid for the Table 4 fork graph (the figure's
 * values are not in the text, only its findings). Run it on the example:
 *
 * <pre>
 *   java -cp ... org.netweather.scheduler.tree.ApplicationSweep examples/tree/table4.json [TASKS]
 * </pre>
 */
public final class ApplicationSweep {
  /** Task sizes of the paper, MB. */
  static final double[] SIZES_MB = {2, 5, 10};

  /** Compute sizes of the paper, diagonals: "six sizes from 1 to 11". */
  static final double[] COMPUTES = {1, 3, 5, 7, 9, 11};

  private ApplicationSweep() {}

  /**
   * One application type.
   *
   * @param boundMulti normalised time at the multi-port bound
   * @param boundSingle normalised time at the single-port bound
   * @param normalised each protocol's makespan over RootComputes'
   */
  public record Row(
      double sizeMb,
      double compute,
      double boundMulti,
      double boundSingle,
      Map<Protocol, Double> normalised) {
    /** Among the six protocols the paper ran (not IA:Derived), the fastest. */
    public Protocol best() {
      return normalised.entrySet().stream()
          .filter(e -> e.getKey() != Protocol.IA_DERIVED)
          .min(Map.Entry.comparingByValue())
          .orElseThrow()
          .getKey();
    }
  }

  public static List<Row> sweep(TreeNode root, int tasks, TaskFarmSimulator.Settings settings) {
    List<Row> rows = new ArrayList<>();
    for (double z : SIZES_MB) {
      for (double d : COMPUTES) {
        TaskSpec task = new TaskSpec(z, d);
        double base =
            TaskFarmSimulator.run(root, task, tasks, Protocol.ROOT_COMPUTES, settings).makespan();
        Map<Protocol, Double> norm = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
          norm.put(p, TaskFarmSimulator.run(root, task, tasks, p, settings).makespan() / base);
        }
        rows.add(
            new Row(
                z,
                d,
                ThroughputBound.of(root, task, SendModel.MULTI_PORT).normalisedTime(),
                ThroughputBound.of(root, task, SendModel.SINGLE_PORT).normalisedTime(),
                norm));
      }
    }
    return rows;
  }

  public static void print(List<Row> rows, PrintWriter out) {
    StringBuilder h =
        new StringBuilder(String.format("%-4s %-3s %6s %6s", "MB", "d", "bndM", "bndS"));
    for (Protocol p : Protocol.values()) {
      h.append(String.format(" %12s", p.label()));
    }
    out.println(h.append("  best of the paper's six"));
    for (Row r : rows) {
      StringBuilder b =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "%-4.0f %-3.0f %6.3f %6.3f",
                  r.sizeMb(),
                  r.compute(),
                  r.boundMulti(),
                  r.boundSingle()));
      for (Protocol p : Protocol.values()) {
        b.append(String.format(Locale.ROOT, " %12.3f", r.normalised().get(p)));
      }
      out.println(b.append("  ").append(r.best().label()));
    }
    out.flush();
  }

  public static void main(String[] args) {
    if (args.length < 1) {
      System.err.println("usage: ApplicationSweep TREE.json [TASKS]");
      System.exit(2);
    }
    TreeNode root = TreeReader.read(Path.of(args[0]));
    int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    System.out.printf(
        "%s, %d tasks, makespan / RootComputes (bnd = steady-state bound, "
            + "M multi-port, S single-port)%n",
        args[0], tasks);
    print(
        sweep(root, tasks, TaskFarmSimulator.Settings.defaults()),
        new PrintWriter(System.out, true, Charset.defaultCharset()));
  }
}
