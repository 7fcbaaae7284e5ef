package org.netweather.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OutputTest {
  @Test
  void number_wholeShortAndUnknown() {
    assertEquals("42", Output.number(42.0));
    assertEquals("0.125", Output.number(0.125));
    assertEquals("1.5e+20", Output.number(1.5e20), "the exponent keeps its zeros");
    assertEquals("1e-07", Output.number(1e-7));
    assertEquals("-3.25", Output.number(-3.25));
    assertEquals("-", Output.number(Double.NaN), "not known yet, as the interval shows it");
  }
}
