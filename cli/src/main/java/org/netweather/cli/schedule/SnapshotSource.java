package org.netweather.cli.schedule;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.query.SnapshotCommand;
import org.netweather.client.NetWeatherClient;
import org.netweather.scheduler.frame.Estimate;
import org.netweather.scheduler.frame.HostResources;
import org.netweather.scheduler.frame.ResourceSnapshot;
import org.netweather.scheduler.frame.SnapshotConverter;
import org.netweather.scheduler.frame.SnapshotReader;
import picocli.CommandLine.Option;

/** Where a scheduler's snapshot comes from: a saved file, or a cluster's proxy now. */
public final class SnapshotSource {
  @Option(
      names = "--snapshot",
      paramLabel = "FILE",
      required = true,
      description =
          "A snapshot file: the proto3 JSON of a ClusterSnapshot "
              + "(nws snapshot --json), with application parameters.")
  Path file;

  @Option(
      names = "--cluster",
      paramLabel = "CLUSTER",
      required = true,
      description = "Ask this cluster's proxy for a snapshot now.")
  String cluster;

  /** Reads or fetches the snapshot. */
  ResourceSnapshot load(ConnectionOptions connection) {
    if (file != null) {
      return SnapshotReader.read(file);
    }
    try (NetWeatherClient client = connection.open()) {
      return SnapshotConverter.toModel(SnapshotCommand.fetch(client, cluster));
    }
  }

  /**
   * Reads or fetches the snapshot; with a positive {@code horizonMs} (a live cluster only), each
   * host's CPU availability is the forecaster's forecast of its mean over that horizon, with that
   * forecast's MAE, where the host has enough history for it, and the next value's otherwise.
   */
  ResourceSnapshot load(ConnectionOptions connection, long horizonMs) {
    if (horizonMs <= 0) {
      return load(connection);
    }
    if (file != null) {
      throw new IllegalArgumentException(
          "--horizon needs --cluster: a snapshot file holds next-value forecasts only");
    }
    try (NetWeatherClient client = connection.open()) {
      ResourceSnapshot now = SnapshotConverter.toModel(SnapshotCommand.fetch(client, cluster));
      Map<String, Estimate> cpu = new HashMap<>();
      for (Forecast f :
          client
              .forecasts(
                  GetForecastsRequest.newBuilder()
                      .addSeries("cpu.availability:*")
                      .setCriterion(Criterion.CRITERION_MAE)
                      .setHorizonMs(horizonMs)
                      .build())
              .getForecastsList()) {
        String host = f.getSeries().substring(f.getSeries().indexOf(':') + 1);
        cpu.put(host, Estimate.of(f.getValue(), f.getMae()));
      }
      return now.withHosts(
          h ->
              cpu.containsKey(h.name())
                  ? new HostResources(
                      h.name(),
                      cpu.get(h.name()),
                      h.memoryFree(),
                      h.interferenceSend(),
                      h.interferenceRecv(),
                      h.parameters())
                  : h);
    }
  }

  /** A name for the snapshot in reports. */
  String describe() {
    return file != null ? file.toString() : "cluster " + cluster;
  }
}
