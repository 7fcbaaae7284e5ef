package org.netweather.cli.query;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.HostSnapshot;
import org.netweather.api.v1.PairSnapshot;
import org.netweather.api.v1.ResourceForecast;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.Output;
import org.netweather.cli.output.TimeArgs;
import org.netweather.client.NetWeatherClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nws snapshot}: a whole cluster from its proxy. */
@Command(
    name = "snapshot",
    description =
        "Show a cluster's hosts and its bandwidth and latency "
            + "matrices, from the cluster's proxy. Values marked * are stale.")
public class SnapshotCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Option(names = "--cluster", description = "Cluster name (default: the only proxy's).")
  String cluster;

  @Option(names = "--json", description = "Print the snapshot's proto3 JSON.")
  boolean json;

  @Override
  public Integer call() {
    try (NetWeatherClient client = connection.open()) {
      ClusterSnapshot snap = fetch(client, cluster);
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Output.json(snap));
      } else {
        print(snap, out);
      }
      out.flush();
      return 0;
    }
  }

  /**
   * The cluster's snapshot from its proxy, found through the nameserver; without a cluster, the
   * only proxy's. Several proxies and no cluster is a usage error naming {@code --cluster}.
   */
  public static ClusterSnapshot fetch(NetWeatherClient client, String cluster) {
    try {
      return client.snapshot(cluster);
    } catch (NetWeatherClient.AmbiguousClusterException e) {
      throw new IllegalArgumentException(
          "several clusters have proxies; choose one with "
              + "--cluster ("
              + String.join(", ", e.clusters())
              + ")",
          e);
    }
  }

  static void print(ClusterSnapshot snap, PrintWriter out) {
    out.println("cluster " + snap.getCluster() + " at " + TimeArgs.format(snap.getTakenMs()));
    out.println();
    Output.Table hosts =
        new Output.Table(
            "HOST", "CPU AVAILABLE", "MEMORY FREE (MiB)", "INTERFERENCE SEND", "INTERFERENCE RECV");
    for (HostSnapshot h : snap.getHostsList()) {
      hosts.row(
          h.getHost(),
          cell(h.hasCpuAvailability() ? h.getCpuAvailability() : null),
          cell(h.hasMemoryFree() ? h.getMemoryFree() : null),
          cell(h.hasInterferenceSend() ? h.getInterferenceSend() : null),
          cell(h.hasInterferenceRecv() ? h.getInterferenceRecv() : null));
    }
    hosts.print(out);
    matrix(
        out,
        "bandwidth (Mbit/s), row = source",
        snap,
        p -> p.hasBandwidth() ? p.getBandwidth() : null);
    matrix(out, "latency (ms), row = source", snap, p -> p.hasLatency() ? p.getLatency() : null);
    if (snap.getMissingPairsCount() > 0) {
      out.println();
      out.println("no data: " + String.join(", ", snap.getMissingPairsList()));
    }
  }

  private static void matrix(
      PrintWriter out,
      String title,
      ClusterSnapshot snap,
      Function<PairSnapshot, ResourceForecast> pick) {
    Map<String, ResourceForecast> cells = new HashMap<>();
    for (PairSnapshot p : snap.getPairsList()) {
      ResourceForecast r = pick.apply(p);
      if (r != null) {
        cells.put(p.getSrc() + "->" + p.getDst(), r);
      }
    }
    List<String> hosts = snap.getHostsList().stream().map(HostSnapshot::getHost).toList();
    String[] header = new String[hosts.size() + 1];
    header[0] = "";
    for (int i = 0; i < hosts.size(); i++) {
      header[i + 1] = hosts.get(i);
    }
    Output.Table t = new Output.Table(header);
    for (String src : hosts) {
      Object[] row = new Object[hosts.size() + 1];
      row[0] = src;
      for (int i = 0; i < hosts.size(); i++) {
        row[i + 1] = src.equals(hosts.get(i)) ? "." : cell(cells.get(src + "->" + hosts.get(i)));
      }
      t.row(row);
    }
    out.println();
    out.println(title);
    t.print(out);
  }

  private static String cell(ResourceForecast r) {
    if (r == null) {
      return "-";
    }
    return Output.number(r.getValue()) + (r.getStale() ? "*" : "");
  }
}
