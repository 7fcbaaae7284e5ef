package org.netweather.cli.schedule;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.JsonWriter;
import org.netweather.scheduler.pipeline.BfcScheduler;
import org.netweather.scheduler.pipeline.FcpScheduler;
import org.netweather.scheduler.pipeline.Pipeline;
import org.netweather.scheduler.pipeline.PipelineReader;
import org.netweather.scheduler.pipeline.PipelineSimulator;
import org.netweather.scheduler.pipeline.Placement;
import org.netweather.scheduler.pipeline.Topology;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nws schedule pipeline}: filter copies and hosts for a DataCutter-style pipeline. */
@Command(
    name = "pipeline",
    description = {
      "Filter copies and their hosts for a pipelined query (DataCutter; Spencer et al.): FCP "
          + "(list scheduling on earliest finish time, shared CPUs, point-to-point links) or BFC "
          + "(rate balancing over shared links, per-filter power cap); the estimated execution "
          + "time, and with --simulate the time a shared-link simulation gives.",
      "The filters file format is in PipelineReader's javadoc."
    })
public final class PipelineCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ConnectionOptions connection;

  @ArgGroup(exclusive = true, multiplicity = "1")
  SnapshotSource source;

  @Option(
      names = "--filters",
      paramLabel = "FILE",
      required = true,
      description = "The filter chain with tuning-run statistics and shared segments (JSON).")
  Path filters;

  @Option(
      names = "--algorithm",
      paramLabel = "fcp|bfc",
      defaultValue = "bfc",
      description = "Placement algorithm (default: ${DEFAULT-VALUE}).")
  String algorithm;

  @Option(names = "--simulate", description = "Also execute the placement in the simulator.")
  boolean simulate;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  @Override
  public Integer call() {
    Pipeline pipeline = PipelineReader.read(filters);
    Topology topo = new Topology(source.load(connection), pipeline.segments());
    Placement p =
        switch (algorithm) {
          case "fcp" -> FcpScheduler.schedule(pipeline, topo);
          case "bfc" -> BfcScheduler.schedule(pipeline, topo);
          default ->
              throw new IllegalArgumentException(
                  "--algorithm: expected fcp or bfc, got '" + algorithm + "'");
        };
    PipelineSimulator.Result sim = simulate ? PipelineSimulator.run(pipeline, topo, p) : null;
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("algorithm", p.algorithm());
      d.put("estimatedSeconds", p.estimatedSeconds());
      List<Object> fs = new ArrayList<>();
      for (int i = 0; i < pipeline.size(); i++) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("name", pipeline.filter(i).name());
        f.put("copies", p.copies().get(i).size());
        f.put("hosts", p.hosts(i));
        f.put(i == 0 ? "outputMbps" : "inputMbps", p.stageRates()[i] * 8e-6);
        fs.add(f);
      }
      d.put("filters", fs);
      d.put("underProvisioned", p.underProvisioned());
      if (sim != null) {
        List<Double> rates = new ArrayList<>();
        for (double r : sim.stageRates()) {
          rates.add(r * 8e-6);
        }
        d.put("simulation", Map.of("seconds", sim.makespan(), "inputMbps", rates));
      }
      out.println(JsonWriter.write(d));
    } else {
      out.printf(
          "%s placement of %s over %s (%d hosts)%n",
          p.algorithm().toUpperCase(Locale.ROOT), filters, source.describe(), topo.size());
      for (int i = 0; i < pipeline.size(); i++) {
        out.printf(
            "  %-12s %2d cop%s  %s %8.2f Mbit/s  on %s%n",
            pipeline.filter(i).name(),
            p.copies().get(i).size(),
            p.copies().get(i).size() == 1 ? "y " : "ies",
            i == 0 ? "output" : "input ",
            p.stageRates()[i] * 8e-6,
            String.join(", ", p.hosts(i)));
      }
      out.printf("estimated execution time: %.2f s%n", p.estimatedSeconds());
      if (!p.underProvisioned().isEmpty()) {
        out.printf(
            "under-provisioned (no free host left): %s%n", String.join(", ", p.underProvisioned()));
      }
      if (sim != null) {
        out.printf(
            "simulated execution time: %.2f s (shared links, demand-driven buffers)%n",
            sim.makespan());
      }
    }
    out.flush();
    return 0;
  }
}
