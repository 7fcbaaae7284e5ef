package org.netweather.cli.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TimeZone;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.DateAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.DeviationRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.netweather.cli.forecast.IntervalOptions;

/**
 * Draws series as a PNG without a display: each series' measurements as a line, and the forecast
 * made one step before each measurement as a dashed line inside its interval (a translucent band of
 * the same colour). Times in UTC, the unit on the value axis.
 */
final class ChartRenderer {
  /** Distinguishable on white and in print. */
  static final Color[] COLORS = {
    new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd),
    new Color(0xff7f0e), new Color(0x17becf), new Color(0x8c564b), new Color(0xe377c2)
  };

  private ChartRenderer() {}

  static JFreeChart chart(List<PlotSeries> series, boolean band) {
    // x is epoch milliseconds, which the date axis shows as times.
    XYSeriesCollection measured = new XYSeriesCollection();
    YIntervalSeriesCollection forecasts = new YIntervalSeriesCollection();
    Set<String> units = new LinkedHashSet<>();
    for (PlotSeries s : series) {
      units.add(s.unit());
      XYSeries line = new XYSeries(s.name(), false, true);
      YIntervalSeries f =
          new YIntervalSeries(
              s.name() + " forecast (" + IntervalOptions.percent(s.coverage()) + " interval)");
      for (int i = 0; i < s.times().length; i++) {
        double x = (double) s.times()[i];
        line.add(x, s.values()[i]);
        if (!Double.isNaN(s.forecast()[i])) {
          f.add(x, s.forecast()[i], s.lower()[i], s.upper()[i]);
        }
      }
      measured.addSeries(line);
      forecasts.addSeries(f);
    }
    DateAxis time = new DateAxis("time (UTC)");
    time.setTimeZone(TimeZone.getTimeZone("UTC"));
    NumberAxis value = new NumberAxis(String.join(", ", units));
    value.setAutoRangeIncludesZero(false);
    XYPlot plot = new XYPlot();
    plot.setDomainAxis(time);
    plot.setRangeAxis(value);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xdddddd));
    plot.setRangeGridlinePaint(new Color(0xdddddd));
    XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, false);
    DeviationRenderer bands = new DeviationRenderer(true, false);
    for (int i = 0; i < series.size(); i++) {
      Color c = COLORS[i % COLORS.length];
      lines.setSeriesPaint(i, c);
      lines.setSeriesStroke(i, new BasicStroke(2f));
      bands.setSeriesPaint(i, c.darker());
      bands.setSeriesFillPaint(i, c);
      bands.setSeriesStroke(
          i,
          new BasicStroke(
              1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 4f}, 0f));
    }
    bands.setAlpha(0.18f);
    plot.setDataset(0, measured);
    plot.setRenderer(0, lines);
    if (band) {
      plot.setDataset(1, forecasts);
      plot.setRenderer(1, bands);
    }
    String title = series.size() == 1 ? series.get(0).name() : series.size() + " series";
    JFreeChart chart = new JFreeChart(title, new Font("SansSerif", Font.BOLD, 16), plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    if (series.size() == 1 && series.get(0).next() != null) {
      var n = series.get(0).next();
      chart.addSubtitle(
          new TextTitle(
              String.format(
                  java.util.Locale.ROOT,
                  "next: %.4g %s (%s: %.4g to %.4g) by %s",
                  n.value(),
                  series.get(0).unit(),
                  IntervalOptions.percent(n.coverage()),
                  n.lower(),
                  n.upper(),
                  n.method())));
    }
    return chart;
  }

  static void png(JFreeChart chart, Path file, int width, int height) throws IOException {
    ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
  }
}
