package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading one daemon's samples out of an endpoint that serves several ({@code nws up}). */
class DaemonMetricsTest {
  private static final String TEXT =
      """
      # HELP netweather_memory_damaged_series Series found with stored data that cannot be read
      # TYPE netweather_memory_damaged_series gauge
      netweather_memory_damaged_series{daemon="memory"} 2.0
      netweather_memory_damaged_series{daemon="memory-b"} 7.0
      netweather_memory_damaged_reads{daemon="memory"} 5.0
      netweather_sensor_spool_dropped_measurements_total{daemon="sensor"} 54.0
      netweather_sensor_clock_offset_seconds{daemon="sensor"} -10800.25
      netweather_sensor_refused_measurements_total{daemon="sensor",reason="future_timestamp"} 3.0
      netweather_sensor_refused_measurements_total{daemon="sensor",reason="invalid"} 0.0
      netweather_rpc_total{daemon="memory",method="a \\"quoted} name"} 9.0
      jvm_threads_current 12.0
      """;

  @Test
  void takesOnlyTheSamplesOfTheNamedDaemon_everyDamageCountPresent() {
    Map<String, Object> memory = DaemonMetrics.parse(TEXT, "memory");
    assertEquals(2L, memory.get("damaged_series"));
    assertEquals(5L, memory.get("damaged_reads"));
    assertEquals(0L, memory.get("journal_damaged_records"));
    assertEquals(0L, memory.get("spool_dropped"));
    assertFalse(memory.containsKey("clock_offset_seconds"));

    Map<String, Object> sensor = DaemonMetrics.parse(TEXT, "sensor");
    assertEquals(0L, sensor.get("damaged_series"));
    assertEquals(54L, sensor.get("spool_dropped"));
    assertEquals(-10800.25, sensor.get("clock_offset_seconds"));
    assertEquals(Map.of("future_timestamp", 3L), sensor.get("refused"));
  }
}
