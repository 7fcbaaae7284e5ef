package org.netweather.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SeriesPatternTest {
  @Test
  void exactName_matchesItselfOnly() {
    SeriesPattern p = SeriesPattern.parse("cpu.availability:alpha");
    assertTrue(p.isExact());
    assertTrue(p.matches("cpu.availability:alpha"));
    assertFalse(p.matches("cpu.availability:alpha2"));
  }

  @Test
  void wildcards_matchAnyRun_includingAnEmptyOne() {
    SeriesPattern hostPairs = SeriesPattern.parse("*:alpha->*");
    assertTrue(hostPairs.matches("tcp.bandwidth:alpha->beta"));
    assertTrue(hostPairs.matches(":alpha->"));
    assertFalse(hostPairs.matches("tcp.bandwidth:beta->alpha"));
    assertFalse(hostPairs.matches("cpu.availability:alpha"));

    assertTrue(SeriesPattern.parse("*").matches("anything:at-all"));
    assertTrue(SeriesPattern.parse("a*a").matches("aa"));
    assertFalse(SeriesPattern.parse("a*a").matches("a"), "the runs may not overlap");
    assertTrue(SeriesPattern.parse("tcp.*:*->beta").matches("tcp.latency:alpha->beta"));
    assertFalse(SeriesPattern.parse("*ab*ab").matches("xab"));
    assertTrue(SeriesPattern.parse("**").matches(""));
  }

  @Test
  void matches_agreesWithTheGlobAsARegularExpression() {
    Random r = new Random(7);
    String alphabet = "ab:*";
    for (int i = 0; i < 20_000; i++) {
      String glob = random(r, alphabet, 1 + r.nextInt(6));
      String name = random(r, "ab:", r.nextInt(8));
      boolean expected = Pattern.compile(SeriesPattern.globToRegex(glob)).matcher(name).matches();
      assertEquals(expected, SeriesPattern.parse(glob).matches(name), glob + " on " + name);
    }
  }

  @Test
  void parse_refusesWhatNoSeriesNameCanHold() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SeriesPattern.parse("cpu (x)"));
    assertTrue(e.getMessage().contains("' '"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SeriesPattern.parse(""));
  }

  private static String random(Random r, String alphabet, int length) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      b.append(alphabet.charAt(r.nextInt(alphabet.length())));
    }
    return b.toString();
  }
}
