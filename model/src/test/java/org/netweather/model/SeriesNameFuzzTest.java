package org.netweather.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Series names and patterns arrive from every caller (appends, fetches, watches, the CLI): parsing
 * either gives a value or an {@link IllegalArgumentException} saying why, and a parsed value prints
 * back to the text it came from. Seeds in {@code SeriesNameFuzzTestInputs/}; {@code
 * benchmarks/fuzz} fuzzes longer.
 */
class SeriesNameFuzzTest {

  @FuzzTest
  void parseName(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    String problem = SeriesName.problem(text);
    SeriesName name;
    try {
      name = SeriesName.parse(text);
    } catch (IllegalArgumentException e) {
      assertNotNull(problem, "parse refused what problem() accepts: " + text);
      assertEquals(problem, e.getMessage());
      return;
    }
    assertNull(problem, "parse accepted what problem() refuses: " + text);
    assertEquals(text, name.toString());
    assertEquals(name, SeriesName.parse(name.toString()));
    SeriesName rebuilt =
        name.isPair()
            ? SeriesName.ofPair(name.resource(), name.source(), name.destination())
            : SeriesName.ofHost(name.resource(), name.source());
    assertEquals(name, rebuilt);
  }

  @FuzzTest
  void parsePattern(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    // The pattern and a candidate name share the input: "PATTERN\nNAME".
    int nl = text.indexOf('\n');
    String glob = nl < 0 ? text : text.substring(0, nl);
    String candidate = nl < 0 ? text : text.substring(nl + 1);
    SeriesPattern pattern;
    try {
      pattern = SeriesPattern.parse(glob);
    } catch (IllegalArgumentException e) {
      assertNotNull(e.getMessage());
      return;
    }
    assertEquals(glob, pattern.toString());
    assertTrue(glob.startsWith(pattern.literalPrefix()));
    // The hand-written matcher agrees with the plain regular expression of the same glob.
    boolean expected =
        Pattern.compile(SeriesPattern.globToRegex(glob), Pattern.DOTALL)
            .matcher(candidate)
            .matches();
    assertEquals(expected, pattern.matches(candidate), glob + " against " + candidate);
    if (pattern.isExact()) {
      assertTrue(pattern.matches(glob));
    }
  }
}
