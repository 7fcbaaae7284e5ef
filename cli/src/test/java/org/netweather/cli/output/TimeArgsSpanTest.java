package org.netweather.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TimeArgsSpanTest {
  @Test
  void span_unitsAndBadInput() {
    assertEquals(90_000, TimeArgs.span("--horizon", "90s"));
    assertEquals(600_000, TimeArgs.span("--horizon", "10m"));
    assertEquals(7_200_000, TimeArgs.span("--horizon", "2h"));
    assertEquals(86_400_000, TimeArgs.span("--horizon", "1d"));
    for (String bad : new String[] {"0m", "10", "-5m", "ten minutes", "1w"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> TimeArgs.span("--horizon", bad));
      assertTrue(e.getMessage().startsWith("--horizon '"), e.getMessage());
    }
  }
}
