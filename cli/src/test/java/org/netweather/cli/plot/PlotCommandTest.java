package org.netweather.cli.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.cli.NwsCommand;
import picocli.CommandLine;

/**
 * {@code nws plot} writes a PNG of the requested size whose pixels show the series: the line's
 * colour lies low where the values are low and high where they are high, with the forecast band
 * around it; and a real trace draws.
 */
class PlotCommandTest {
  @TempDir Path dir;

  private static int run(String... args) {
    CommandLine cmd = NwsCommand.commandLine();
    cmd.setOut(new PrintWriter(new StringWriter(), true));
    StringWriter err = new StringWriter();
    cmd.setErr(new PrintWriter(err, true));
    int code = cmd.execute(args);
    assertEquals(0, code, err.toString());
    return code;
  }

  /** Mean row of the pixels close to {@code c} in columns [from, to). */
  private static double meanRow(BufferedImage img, Color c, int from, int to) {
    long sum = 0;
    long n = 0;
    for (int x = from; x < to; x++) {
      for (int y = 0; y < img.getHeight(); y++) {
        Color p = new Color(img.getRGB(x, y));
        if (Math.abs(p.getRed() - c.getRed()) < 12
            && Math.abs(p.getGreen() - c.getGreen()) < 12
            && Math.abs(p.getBlue() - c.getBlue()) < 12) {
          sum += y;
          n++;
        }
      }
    }
    assertTrue(n > 0, "no pixels of the series' colour in columns " + from + ".." + to);
    return (double) sum / n;
  }

  @Test
  void aStep_isDrawnLowThenHigh_withItsBand() throws Exception {
    StringBuilder csv = new StringBuilder("timestamp,value\n");
    for (int i = 0; i < 200; i++) {
      csv.append(1_700_000_000_000L + i * 10_000L)
          .append(',')
          .append(i < 100 ? 10 : 90)
          .append('\n');
    }
    Path trace = Files.writeString(dir.resolve("step.csv"), csv);
    Path png = dir.resolve("step.png");
    run("plot", "--file", trace.toString(), "-o", png.toString(), "--size", "800x400");
    BufferedImage img = ImageIO.read(png.toFile());
    assertEquals(800, img.getWidth());
    assertEquals(400, img.getHeight());
    Color line = ChartRenderer.COLORS[0];
    // The plot area spans most of the width; its left and right quarters hold the two levels.
    double left = meanRow(img, line, 120, 300);
    double right = meanRow(img, line, 500, 740);
    assertTrue(right < left - 100, "90 drawn well above 10: rows " + right + " vs " + left);
    // The band: translucent pixels of the same hue (lighter than the line, not white).
    int banded = 0;
    for (int x = 380; x < 460; x++) {
      for (int y = 40; y < 360; y++) {
        Color p = new Color(img.getRGB(x, y));
        if (p.getBlue() > p.getRed() + 15 && p.getRed() > 150) {
          banded++;
        }
      }
    }
    assertTrue(banded > 50, "the forecast band around the step: " + banded + " pixels");
  }

  @Test
  void realTraces_drawTogether() throws Exception {
    Path traces = Path.of("../examples/traces");
    Path png = dir.resolve("real.png");
    run(
        "plot",
        "--file",
        traces.resolve("vm-load1.csv").toString(),
        "--file",
        traces.resolve("vm-cpu-idle.csv").toString(),
        "-o",
        png.toString());
    BufferedImage img = ImageIO.read(png.toFile());
    assertEquals(1000, img.getWidth());
    meanRow(img, ChartRenderer.COLORS[0], 100, 900);
    meanRow(img, ChartRenderer.COLORS[1], 100, 900);
  }
}
