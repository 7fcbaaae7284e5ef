package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.client.NetWeatherClient;

/** Deleting series through the client library also drops them from the directory. */
class SeriesDeleteDirectoryTest {
  @TempDir Path dir;

  @Test
  void deleteSeries_leavesTheDirectory_andAFreshAppendIsPlacedAgain() throws Exception {
    try (LoopbackStore site = LoopbackStore.start(dir)) {
      NetWeatherClient client = site.client;
      List<Measurement> m = LoopbackStore.aSecondAgo();
      for (String s : List.of("user.x:a", "user.x:b", "user.y:a")) {
        client.put(s, m);
      }
      assertEquals(3, client.directory("").size());

      client.deleteSeries("user.x:*", true); // a dry run changes nothing
      assertEquals(3, client.directory("").size());
      client.deleteSeries("user.x:*", false);
      assertEquals(
          List.of("user.y:a"),
          client.directory("").stream().map(SeriesAssignment::getSeries).toList());

      client.put("user.x:a", m);
      assertEquals(2, client.directory("").size());
      assertEquals(1, client.last("user.x:a", 10).getPointsCount());
    }
  }
}
