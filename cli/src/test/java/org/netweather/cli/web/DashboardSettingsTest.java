package org.netweather.cli.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The dashboard's thresholds: the defaults cover the resources the pages colour, {@code
 * --threshold} replaces one resource's pair, and bad input names what is wrong; the JSON handed to
 * the pages carries the catalogue's units and ranges.
 */
class DashboardSettingsTest {
  @Test
  void defaults_colourEveryResourceThePagesShow() {
    DashboardSettings s = DashboardSettings.defaults();
    for (String r :
        new String[] {
          "tcp.bandwidth", "tcp.latency", "tcp.connect", "cpu.availability", "memory.free"
        }) {
      assertTrue(s.threshold(r) != null, r + " has no default threshold");
    }
    // A healthy link of 5.5 Gbit/s is far above the bandwidth's warning threshold.
    assertTrue(s.threshold("tcp.bandwidth").warning() < 5500);
  }

  @Test
  void withThreshold_replacesOneResource() {
    DashboardSettings s = DashboardSettings.defaults().withThreshold("tcp.bandwidth=1000,200");
    assertEquals(new Threshold(1000, 200), s.threshold("tcp.bandwidth"));
    assertEquals(DashboardSettings.DEFAULTS.get("tcp.latency"), s.threshold("tcp.latency"));
  }

  @Test
  void withThreshold_badInput_namesWhatIsWrong() {
    DashboardSettings s = DashboardSettings.defaults();
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> s.withThreshold("tcp.speed=1,2"));
    assertTrue(unknown.getMessage().contains("unknown resource 'tcp.speed'"), unknown.getMessage());
    assertTrue(unknown.getMessage().contains("tcp.bandwidth"), unknown.getMessage());
    IllegalArgumentException noEquals =
        assertThrows(IllegalArgumentException.class, () -> s.withThreshold("tcp.bandwidth"));
    assertTrue(noEquals.getMessage().contains("RESOURCE=WARNING,CRITICAL"), noEquals.getMessage());
    IllegalArgumentException notNumbers =
        assertThrows(IllegalArgumentException.class, () -> s.withThreshold("tcp.latency=a,b"));
    assertTrue(notNumbers.getMessage().contains("'a,b'"), notNumbers.getMessage());
    IllegalArgumentException equal =
        assertThrows(IllegalArgumentException.class, () -> s.withThreshold("tcp.latency=5,5"));
    assertTrue(equal.getMessage().contains("must differ"), equal.getMessage());
  }

  @Test
  void json_carriesUnitsRangesAndThresholds() {
    String json = DashboardSettings.defaults().withThreshold("tcp.latency=2,20").json();
    assertTrue(json.contains("\"tcp.bandwidth\": {\n"), json);
    assertTrue(json.contains("\"unit\": \"Mbit/s\""), json);
    assertTrue(json.contains("\"unit\": \"fraction\""), json);
    // cpu.availability's range is [0, 1]; tcp.latency's thresholds as given.
    String cpu = json.substring(json.indexOf("\"cpu.availability\""));
    assertTrue(cpu.substring(0, cpu.indexOf('}')).contains("\"max\": 1"), cpu);
    String latency = json.substring(json.indexOf("\"tcp.latency\""));
    latency = latency.substring(0, latency.indexOf('}'));
    assertTrue(latency.contains("\"warning\": 2") && latency.contains("\"critical\": 20"), latency);
  }
}
