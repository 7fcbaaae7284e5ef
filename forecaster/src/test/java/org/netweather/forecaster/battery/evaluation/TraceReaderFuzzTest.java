package org.netweather.forecaster.battery.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

/**
 * CSV traces ({@code timestamp,value}) given to {@code nws evaluate}: whatever a file holds,
 * reading it gives a trace or an {@link IllegalArgumentException} naming the file, and a trace read
 * holds finite values at timestamps that never go back. Seeds in {@code
 * TraceReaderFuzzTestInputs/}; {@code benchmarks/fuzz} fuzzes longer.
 */
class TraceReaderFuzzTest {

  @FuzzTest
  void read(byte[] data) throws IOException {
    String text = new String(data, StandardCharsets.UTF_8);
    Trace trace;
    try {
      trace = TraceReader.read("fuzzed", "fuzzed.csv", new StringReader(text));
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage().startsWith("fuzzed.csv"), e.getMessage());
      return;
    }
    assertEquals(trace.timestamps().length, trace.values().length);
    for (int i = 0; i < trace.values().length; i++) {
      assertTrue(Double.isFinite(trace.values()[i]), "value " + i);
      if (i > 0) {
        assertTrue(trace.timestamps()[i] >= trace.timestamps()[i - 1], "timestamp " + i);
      }
    }
  }
}
