package org.netweather.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SeriesNameTest {
  @Test
  void parse_hostSeries_splitsResourceAndHost() {
    SeriesName n = SeriesName.parse("cpu.availability:alpha");
    assertEquals("cpu.availability", n.resource());
    assertEquals("alpha", n.source());
    assertNull(n.destination());
    assertFalse(n.isPair());
    assertEquals(Resource.CPU_AVAILABILITY, n.knownResource());
  }

  @Test
  void parse_pairSeries_splitsSourceAndDestination() {
    SeriesName n = SeriesName.parse("tcp.bandwidth:alpha->beta-2.lan");
    assertEquals("alpha", n.source());
    assertEquals("beta-2.lan", n.destination());
    assertTrue(n.isPair());
    assertEquals("tcp.bandwidth:alpha->beta-2.lan", n.toString());
  }

  @Test
  void parse_userSeries_isAcceptedWithoutUnit() {
    SeriesName n = SeriesName.parse("disk.iops:alpha");
    assertNull(n.knownResource());
    assertEquals("", Resource.unitOf(n.resource()));
    assertNull(n.checkValue(-5));
  }

  @Test
  void parse_malformed_namesWhatIsWrong() {
    assertMessage("cpu.availability", "has no ':'");
    assertMessage(":alpha", "resource is empty");
    assertMessage("cpu.availability:", "host is empty");
    assertMessage("cpu availability:alpha", "has ' '");
    assertMessage("tcp.bandwidth:alpha->", "destination host is empty");
    assertMessage("tcp.bandwidth:alpha->alpha", "same host");
    assertMessage("tcp.bandwidth:alpha", "measured between two hosts");
    assertMessage("cpu.availability:alpha->beta", "measured at one host");
    assertMessage("x:" + "a".repeat(300), "longer than");
  }

  @Test
  void checkValue_knownResources_enforceRanges() {
    assertNull(SeriesName.parse("cpu.availability:a").checkValue(0.5));
    assertEquals(
        "must be in [0, 1] fraction", SeriesName.parse("cpu.availability:a").checkValue(1.5));
    assertEquals(
        "must be in [0, 10000000] Mbit/s", SeriesName.parse("tcp.bandwidth:a->b").checkValue(-1));
    assertEquals(
        "must be in [0, 10000000] Mbit/s",
        SeriesName.parse("tcp.bandwidth:a->b").checkValue(1e308),
        "an absurd value would poison the series' forecasts");
    assertEquals(
        "must be in [0, 600000] ms", SeriesName.parse("tcp.latency:a->b").checkValue(700_000));
    assertNull(SeriesName.parse("memory.free:a").checkValue(512 * 1024.0));
    assertEquals("must be finite", SeriesName.parse("memory.free:a").checkValue(Double.NaN));
    assertEquals(
        "must be finite", SeriesName.parse("user.x:a").checkValue(Double.POSITIVE_INFINITY));
    assertNull(SeriesName.parse("interference.send:a->b").checkValue(-0.01));
  }

  @Test
  void pattern_wildcards_matchRuns() {
    SeriesPattern p = SeriesPattern.parse("tcp.bandwidth:alpha->*");
    assertTrue(p.matches("tcp.bandwidth:alpha->beta"));
    assertFalse(p.matches("tcp.bandwidth:beta->alpha"));
    assertTrue(SeriesPattern.parse("*").matches("anything:x"));
    assertTrue(SeriesPattern.parse("cpu.availability:alpha").isExact());
    assertFalse(SeriesPattern.parse("cpu.availability:alpha").matches("cpu.availabilityXalpha"));
    assertTrue(SeriesPattern.parse("cpu.*:a").matches("cpu.availability:a"));
    assertFalse(SeriesPattern.parse("cpu.*:a").matches("cpuXavailability:a"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SeriesPattern.parse("a b"));
    assertTrue(e.getMessage().contains("' '"), e.getMessage());
  }

  private static void assertMessage(String name, String fragment) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SeriesName.parse(name));
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }
}
