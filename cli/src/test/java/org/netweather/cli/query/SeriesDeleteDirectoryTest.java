package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.client.NetWeatherClient;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.memoryhost.MemoryHostServer;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.nameserver.NameserverServer;

/** Deleting series through the client library also drops them from the directory. */
class SeriesDeleteDirectoryTest {
  @TempDir Path dir;

  @Test
  void deleteSeries_leavesTheDirectory_andAFreshAppendIsPlacedAgain() throws Exception {
    NameserverProperties nsp =
        NameserverProperties.defaults()
            .with(NameserverProperties.DATA_DIR, dir.resolve("ns").toString())
            .with(NameserverProperties.HOST, "localhost")
            .with(NameserverProperties.METRICS_PORT, -1);
    try (NameserverServer ns = NameserverServer.start(nsp, NettyServerBuilder.forPort(0))) {
      String target = "localhost:" + ns.getPort();
      MemoryHostProperties mp =
          MemoryHostProperties.defaults()
              .with(MemoryHostProperties.DATA_DIR, dir.resolve("mem").toString())
              .with(MemoryHostProperties.HOST, "localhost")
              .with(MemoryHostProperties.NAMESERVER, target)
              .with(MemoryHostProperties.METRICS_PORT, -1);
      try (MemoryHostServer memory = MemoryHostServer.start(mp, NettyServerBuilder.forPort(0));
          NetWeatherClient client = NetWeatherClient.forAddress(target).build()) {
        long deadline = System.currentTimeMillis() + 10_000;
        while (client.search("(kind=memory)").isEmpty()) {
          assertTrue(System.currentTimeMillis() < deadline, "memory-host never registered");
          Thread.sleep(50);
        }
        Measurement m =
            Measurement.newBuilder()
                .setTimestampMs(System.currentTimeMillis() - 1_000)
                .setValue(1)
                .build();
        for (String s : List.of("user.x:a", "user.x:b", "user.y:a")) {
          client.put(s, List.of(m));
        }
        assertEquals(3, client.directory("").size());

        client.deleteSeries("user.x:*", true); // a dry run changes nothing
        assertEquals(3, client.directory("").size());
        client.deleteSeries("user.x:*", false);
        assertEquals(
            List.of("user.y:a"),
            client.directory("").stream().map(SeriesAssignment::getSeries).toList());

        client.put("user.x:a", List.of(m));
        assertEquals(2, client.directory("").size());
        assertEquals(1, client.last("user.x:a", 10).getPointsCount());
      }
    }
  }
}
