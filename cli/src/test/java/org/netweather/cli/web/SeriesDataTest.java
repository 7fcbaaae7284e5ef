package org.netweather.cli.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netweather.api.v1.Measurement;
import org.netweather.model.Resource;

/**
 * A series page's data: the forecast band of a CPU fraction that climbs to 1 and drops stays within
 * [0, 1] (unclipped, the interval reaches past 1), and the headline holds the next value's
 * forecast, its interval, method and the last measurement's age at the time asked.
 */
class SeriesDataTest {
  private static final long T0 = 1_800_000_000_000L;

  private static List<Measurement> climbThenDrop() {
    List<Measurement> points = new ArrayList<>();
    double[] values = {0.63, 0.64, 0.65, 0.71, 0.72, 0.75, 0.71, 0.73, 0.74, 0.77, 0.8, 0.81};
    double[] tail = {0.76, 0.78, 0.79, 0.8, 0.82, 0.84, 0.92, 0.73, 0.8, 0.87, 0.95, 0.98, 1.0};
    int i = 0;
    for (double v : values) {
      points.add(Measurement.newBuilder().setTimestampMs(T0 + 10_000L * i++).setValue(v).build());
    }
    for (double v : tail) {
      points.add(Measurement.newBuilder().setTimestampMs(T0 + 10_000L * i++).setValue(v).build());
    }
    return points;
  }

  @Test
  void cpuBand_staysWithinTheFractionsRange() throws Exception {
    List<Measurement> points = climbThenDrop();
    JsonNode d =
        new ObjectMapper()
            .readTree(
                SeriesData.json(
                    "cpu.availability:h1", Resource.CPU_AVAILABILITY, points, T0 + 300_000));
    assertEquals("fraction", d.get("unit").asText());
    double highest = 0;
    for (int i = 1; i < points.size(); i++) {
      double lo = d.get("lower").get(i).asDouble();
      double hi = d.get("upper").get(i).asDouble();
      assertTrue(lo >= 0 && hi <= 1, "band [" + lo + ", " + hi + "] at " + i);
      highest = Math.max(highest, hi);
    }
    assertEquals(1.0, highest, 1e-9, "the band reaches the top of the range, clipped there");
    JsonNode next = d.get("next");
    assertTrue(next.get("upper").asDouble() <= 1.0, next.toString());
    assertTrue(next.get("lower").asDouble() <= next.get("value").asDouble(), next.toString());
    assertTrue(!next.get("method").asText().isEmpty(), next.toString());
    long last = T0 + 10_000L * (points.size() - 1);
    assertEquals(last, next.get("lastMs").asLong());
    assertEquals(T0 + 300_000 - last, next.get("ageMs").asLong());
  }

  @Test
  void userSeries_isNotClipped_andAnEmptySeriesHasNoHeadline() throws Exception {
    List<Measurement> points = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      points.add(
          Measurement.newBuilder()
              .setTimestampMs(T0 + i * 1000L)
              .setValue(i % 2 == 0 ? -5 : 5)
              .build());
    }
    JsonNode d = new ObjectMapper().readTree(SeriesData.json("jobs:queue", null, points, T0));
    double lowest = 0;
    for (int i = 1; i < points.size(); i++) {
      lowest = Math.min(lowest, d.get("lower").get(i).asDouble());
    }
    assertTrue(lowest < -5, "a user series' band is left as computed (lowest " + lowest + ")");
    assertEquals("", d.get("unit").asText());
    JsonNode empty =
        new ObjectMapper().readTree(SeriesData.json("jobs:queue", null, List.of(), T0));
    assertTrue(empty.get("next").isNull(), empty.toString());
  }
}
