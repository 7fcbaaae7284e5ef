package org.netweather.scheduler.cluster;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a latency matrix CSV.
 *
 * <pre>
 *   ,a,b,c              first row: host names (the corner cell is ignored)
 *   a,0,48.4,6577       first column: the same names in the same order
 *   b,48.4,,6586        cells: latency from row host to column host, any one unit;
 *   c,6577,6586,0       empty or "NaN" = not measured; the diagonal is ignored
 * </pre>
 *
 * Lines starting with {@code #} and blank lines are skipped. Both directions are combined with
 * {@link LatencyMatrix.Symmetry#MAX} unless the caller asks otherwise.
 */
public final class LatencyMatrixReader {
  private LatencyMatrixReader() {}

  public static LatencyMatrix read(Path file, LatencyMatrix.Symmetry symmetry) {
    try {
      return parse(Files.readAllLines(file), file.toString(), symmetry);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file");
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          file + ": not UTF-8 text (a binary file?); expected a CSV latency matrix");
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage());
    }
  }

  static LatencyMatrix parse(List<String> lines, String source, LatencyMatrix.Symmetry symmetry) {
    List<String[]> rows = new ArrayList<>();
    for (String line : lines) {
      if (!line.isBlank() && !line.startsWith("#")) {
        rows.add(line.split(",", -1));
      }
    }
    if (rows.isEmpty()) {
      throw new IllegalArgumentException(source + ": empty latency matrix");
    }
    List<String> hosts = new ArrayList<>();
    for (int j = 1; j < rows.get(0).length; j++) {
      hosts.add(rows.get(0)[j].trim());
    }
    int n = hosts.size();
    if (rows.size() - 1 != n) {
      throw new IllegalArgumentException(
          source + ": " + n + " host columns but " + (rows.size() - 1) + " rows");
    }
    double[][] raw = new double[n][n];
    for (int i = 0; i < n; i++) {
      String[] r = rows.get(i + 1);
      if (!r[0].trim().equals(hosts.get(i))) {
        throw new IllegalArgumentException(
            source
                + ": row "
                + (i + 2)
                + " is '"
                + r[0].trim()
                + "', expected '"
                + hosts.get(i)
                + "' (rows and columns must list hosts alike)");
      }
      if (r.length != n + 1) {
        throw new IllegalArgumentException(
            source + ": row " + (i + 2) + " has " + (r.length - 1) + " cells, expected " + n);
      }
      for (int j = 0; j < n; j++) {
        String cell = r[j + 1].trim();
        if (i == j || cell.isEmpty() || cell.equalsIgnoreCase("nan")) {
          raw[i][j] = Double.NaN;
          continue;
        }
        try {
          raw[i][j] = Double.parseDouble(cell);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              source
                  + ": row "
                  + (i + 2)
                  + " column "
                  + (j + 2)
                  + ": not a number: '"
                  + cell
                  + "'");
        }
      }
    }
    return LatencyMatrix.of(hosts, raw, symmetry);
  }
}
