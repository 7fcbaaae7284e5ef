package org.netweather.cli.schedule;

import java.nio.file.Path;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.query.SnapshotCommand;
import org.netweather.client.NetWeatherClient;
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

  /** A name for the snapshot in reports. */
  String describe() {
    return file != null ? file.toString() : "cluster " + cluster;
  }
}
