package org.netweather.cli.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.title.TextTitle;
import org.junit.jupiter.api.Test;
import org.netweather.cli.NwsCommand;
import org.netweather.cli.forecast.IntervalOptions;
import org.netweather.forecaster.battery.Criterion;
import org.netweather.forecaster.battery.PhysicalRange;
import org.netweather.forecaster.battery.evaluation.Trace;
import org.netweather.forecaster.battery.evaluation.TraceReader;
import org.netweather.model.Resource;
import picocli.CommandLine;

/**
 * Issue 28: the shipped CPU trace's band stays within [0, 1] once the trace is known to be CPU
 * availability, and {@code nws forecast}, {@code nws plot} and {@code nws evaluate} show the same
 * interval at the same coverage, 90 % by default.
 */
class Issue28IntervalCliTest {
  private static final Path CPU = Path.of("../examples/traces/vm-cpu-idle.csv");

  private static String run(String... args) {
    CommandLine cmd = NwsCommand.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    assertEquals(0, cmd.execute(args), err.toString());
    return out.toString();
  }

  private static double field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*([-+0-9.eE]+)").matcher(json);
    assertTrue(m.find(), name + " in " + json);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void forecastFile_cpuTrace_bandWithinZeroAndOne_withResource() {
    String raw = run("forecast", "--file", CPU.toString(), "--json");
    assertTrue(field(raw, "upper") > 1, "without a resource the band is unbounded: " + raw);
    String cpu =
        run("forecast", "--file", CPU.toString(), "--resource", "cpu.availability", "--json");
    assertTrue(field(cpu, "lower") >= 0, cpu);
    assertEquals(1.0, field(cpu, "upper"), 0, cpu);
    assertEquals(0.90, field(cpu, "confidence"), 0, cpu);
    assertEquals(field(raw, "lower"), field(cpu, "lower"), 0, "only the bound moves");
  }

  @Test
  void forecastPlotEvaluate_defaultCoverage_areTheSame_andPlotDrawsTheServedInterval()
      throws Exception {
    String forecast =
        run("forecast", "--file", CPU.toString(), "--resource", "cpu.availability", "--json");
    Trace t = TraceReader.read(CPU);
    double coverage = new IntervalOptions().coverage();
    PlotSeries p =
        PlotSeries.of(
            t.name(),
            "fraction",
            t.timestamps(),
            t.values(),
            Criterion.MSE,
            coverage,
            PhysicalRange.of(Resource.CPU_AVAILABILITY));
    assertEquals(field(forecast, "confidence"), p.next().coverage(), 0);
    assertEquals(field(forecast, "lower"), p.next().lower(), 0);
    assertEquals(field(forecast, "upper"), p.next().upper(), 0);
    // From the third point on (an interval needs a known error); NaN before.
    for (int i = 2; i < p.lower().length; i++) {
      assertTrue(p.lower()[i] >= 0 && p.upper()[i] <= 1, "band at " + i);
    }
    JFreeChart chart = ChartRenderer.chart(List.of(p), true);
    String subtitle = ((TextTitle) chart.getSubtitle(1)).getText();
    assertTrue(subtitle.contains("(90 %: "), subtitle);

    String table = run("forecast", "--file", CPU.toString());
    assertTrue(table.contains("INTERVAL (90%)"), table);
    String evaluate = run("evaluate", CPU.getParent().toString());
    assertTrue(evaluate.contains("served forecast's 90 % interval"), evaluate);
  }

  @Test
  void resource_unknown_isRefusedNamingTheKnownOnes() {
    CommandLine cmd = NwsCommand.commandLine();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(new StringWriter(), true));
    cmd.setErr(new PrintWriter(err, true));
    int code = cmd.execute("forecast", "--file", CPU.toString(), "--resource", "cpu.idle");
    assertTrue(code != 0);
    assertTrue(err.toString().contains("cpu.availability"), err.toString());
  }
}
