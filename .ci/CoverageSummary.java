import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints line and branch coverage per module from a JaCoCo CSV report, so that {@code ./mvnw
 * verify} ends with the figures instead of leaving them in an HTML page.
 *
 * <p>Run by the launcher module at {@code verify}: {@code java CoverageSummary.java REPORT.csv}.
 * The CSV has one row per class; its first column names the module in an aggregate report.
 */
public final class CoverageSummary {
  private CoverageSummary() {}

  public static void main(String[] args) throws IOException {
    Path csv = Path.of(args[0]);
    if (!Files.isRegularFile(csv)) {
      System.out.println("Coverage: no report at " + csv + " (tests skipped?)");
      return;
    }
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    List<String> header = List.of(lines.get(0).split(",", -1));
    int branchMissed = header.indexOf("BRANCH_MISSED");
    int branchCovered = header.indexOf("BRANCH_COVERED");
    int lineMissed = header.indexOf("LINE_MISSED");
    int lineCovered = header.indexOf("LINE_COVERED");
    Map<String, long[]> byModule = new TreeMap<>();
    long[] total = new long[4];
    for (String row : lines.subList(1, lines.size())) {
      String[] f = row.split(",", -1);
      if (f.length < header.size()) {
        continue;
      }
      // An aggregate report names its groups "title/module"; keep the module.
      String module = f[0].substring(f[0].lastIndexOf('/') + 1);
      long[] sums = byModule.computeIfAbsent(module, m -> new long[4]);
      int[] columns = {lineMissed, lineCovered, branchMissed, branchCovered};
      for (int i = 0; i < 4; i++) {
        long v = Long.parseLong(f[columns[i]]);
        sums[i] += v;
        total[i] += v;
      }
    }
    System.out.println(
        "Coverage by all tests (JaCoCo; report: " + csv.resolveSibling("index.html") + "):");
    System.out.printf(Locale.ROOT, "  %-20s %-22s %-22s%n", "module", "lines", "branches");
    byModule.forEach((module, sums) -> System.out.println(row(module, sums)));
    System.out.println(row("total", total));
  }

  private static String row(String name, long[] sums) {
    return String.format(
        Locale.ROOT, "  %-20s %22s %22s", name, ratio(sums[1], sums[0]), ratio(sums[3], sums[2]));
  }

  private static String ratio(long covered, long missed) {
    long all = covered + missed;
    if (all == 0) {
      return "-";
    }
    return String.format(Locale.ROOT, "%5.1f%% %7d/%-7d", 100.0 * covered / all, covered, all);
  }
}
