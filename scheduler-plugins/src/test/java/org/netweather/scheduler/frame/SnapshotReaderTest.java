package org.netweather.scheduler.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.netweather.scheduler.Examples;

class SnapshotReaderTest {
  private static final String HOST =
      "{\"host\": \"a\", \"cpuAvailability\": {\"value\": 0.5, "
          + "\"mae\": 0.1}, \"memoryFree\": {\"value\": 2}, "
          + "\"parameters\": {\"secondsPerPoint\": 1e-6}}";
  private static final String HOST_B = "{\"host\": \"b\"}";

  private static ResourceSnapshot parse(String json) {
    return SnapshotConverter.toModel(SnapshotReader.parse(json, "test.json"));
  }

  @Test
  void read_j6Example_convertsUnitsToSi() {
    ResourceSnapshot s = SnapshotReader.read(Examples.path("jacobi/j6.json"));
    assertEquals("apples-J6", s.cluster());
    assertEquals(4, s.size());
    int a1 = s.indexOf("A1");
    int a2 = s.indexOf("A2");
    int b1 = s.indexOf("B1");
    assertEquals(1.25e6, s.bandwidth(a1, a2), 1e-6); // 10 Mbit/s
    assertEquals(2e4, s.bandwidth(a1, b1), 1e-9); // 0.16 Mbit/s = 0.02 MB/s
    assertEquals(1024.0 * (1 << 20), s.host(a1).memoryFree().value());
    assertEquals(8e-7, s.host(b1).parameter("secondsPerPoint", 0), 1e-20);
    assertEquals(1000, s.parameter("size", 0));
    assertTrue(Double.isNaN(s.latency(a1, a2)));
  }

  @Test
  void parse_forecastError_keptInModelUnits() {
    ResourceSnapshot s = parse("{\"hosts\": [" + HOST + "]}");
    assertEquals(0.5, s.host(0).cpuAvailability().value());
    assertEquals(0.1, s.host(0).cpuAvailability().error());
    assertEquals(2.0 * (1 << 20), s.host(0).memoryFree().value());
  }

  @Test
  void parse_unknownFields_namesEveryOneWithItsPath() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                parse(
                    "{\"sizee\": 3, \"hosts\": [{\"host\": \"a\", \"cpu\": {\"value\": 1}}, "
                        + "{\"host\": \"b\", \"memoryFree\": {\"valu\": 3}}], "
                        + "\"pairs\": [{\"src\": \"a\", \"dst\": \"b\", \"bw\": 1}]}"));
    assertTrue(e.getMessage().startsWith("test.json: unknown fields "), e.getMessage());
    for (String path :
        new String[] {"sizee", "hosts[0].cpu", "hosts[1].memoryFree.valu", "pairs[0].bw"}) {
      assertTrue(e.getMessage().contains(path), path + " in " + e.getMessage());
    }
  }

  @Test
  void parse_protoFieldNames_accepted() {
    ResourceSnapshot s =
        parse(
            "{\"hosts\": [{\"host\": \"a\", \"cpu_availability\": "
                + "{\"value\": 1}, \"memory_free\": {\"value\": 1}}], \"taken_ms\": \"5\"}");
    assertEquals(1.0, s.host(0).cpuAvailability().value());
    assertEquals(5, s.takenMs());
  }

  @Test
  void parse_parameterKeys_free() {
    ResourceSnapshot s = parse("{\"parameters\": {\"anything\": 2}, \"hosts\": [" + HOST + "]}");
    assertEquals(2, s.parameter("anything", 0));
  }

  @Test
  void parse_negativeBandwidth_rejectedNamingField() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                parse(
                    "{\"hosts\": ["
                        + HOST
                        + ","
                        + HOST_B
                        + "], \"pairs\": [{\"src\": \"a\", \"dst\": \"b\","
                        + " \"bandwidth\": {\"value\": -1}}]}"));
    assertTrue(e.getMessage().contains("pairs[0].bandwidth.value"), e.getMessage());
  }

  @Test
  void parse_pairWithUnknownHost_rejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                parse(
                    "{\"hosts\": [" + HOST + "], \"pairs\": [{\"src\": \"a\", \"dst\": \"zz\"}]}"));
    assertTrue(e.getMessage().contains("pairs[0]: unknown host 'zz'"), e.getMessage());
  }

  @Test
  void parse_duplicatePair_rejected() {
    String pair = "{\"src\": \"a\", \"dst\": \"b\", \"bandwidth\": {\"value\": 1}}";
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                parse(
                    "{\"hosts\": ["
                        + HOST
                        + ","
                        + HOST_B
                        + "], \"pairs\": ["
                        + pair
                        + ","
                        + pair
                        + "]}"));
    assertTrue(e.getMessage().contains("pairs[1]: pair a->b appears twice"), e.getMessage());
  }

  @Test
  void parse_duplicateHost_rejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> parse("{\"hosts\": [" + HOST + "," + HOST + "]}"));
    assertTrue(e.getMessage().contains("hosts[1].host"), e.getMessage());
  }

  @Test
  void parse_cpuAboveOne_rejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> parse("{\"hosts\": [{\"host\": \"a\", \"cpuAvailability\": {\"value\": 2}}]}"));
    assertTrue(e.getMessage().contains("hosts[0].cpuAvailability.value"), e.getMessage());
  }

  @Test
  void parse_wrongJsonType_rejected() {
    assertThrows(IllegalArgumentException.class, () -> parse("{\"hosts\": 3}"));
    assertThrows(IllegalArgumentException.class, () -> parse("[1, 2]"));
    assertThrows(IllegalArgumentException.class, () -> parse("{not json"));
  }

  @Test
  void read_missingFile_rejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SnapshotReader.read(Path.of("no-such-snapshot.json")));
    assertTrue(e.getMessage().contains("no such file"), e.getMessage());
  }

  @Test
  void bandwidth_staleForecast_readsAsUnknown() {
    ResourceSnapshot s =
        parse(
            "{\"hosts\": ["
                + HOST
                + ","
                + HOST_B
                + "], \"pairs\": [{\"src\":"
                + " \"a\", \"dst\": \"b\", \"bandwidth\": {\"value\": 8, \"stale\": true}}]}");
    assertTrue(Double.isNaN(s.bandwidth(0, 1)));
    assertTrue(s.link(0, 1).orElseThrow().bandwidth().stale());
    assertEquals(1e6, s.link(0, 1).orElseThrow().bandwidth().value());
  }

  @Test
  void subset_keepsPairsOfChosenHosts() {
    ResourceSnapshot s = SnapshotReader.read(Examples.path("jacobi/j6.json"));
    ResourceSnapshot sub = s.subset(new int[] {s.indexOf("B2"), s.indexOf("B1")});
    assertEquals("B2", sub.host(0).name());
    assertEquals(1.25e6, sub.bandwidth(0, 1), 1e-6);
  }
}
