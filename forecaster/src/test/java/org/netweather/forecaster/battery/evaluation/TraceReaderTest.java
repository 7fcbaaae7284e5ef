package org.netweather.forecaster.battery.evaluation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReaderTest {

  private static Trace parse(String text) throws IOException {
    return TraceReader.read("t", "t.csv", new StringReader(text));
  }

  private static String error(String text) {
    return assertThrows(IllegalArgumentException.class, () -> parse(text)).getMessage();
  }

  @Test
  void read_dateTimeTimestamps_parsesAsUtcMillis() throws IOException {
    Trace trace = parse("timestamp,value\n2014-02-14 14:30:00,0.132\n\n2014-02-14 14:35:00,1e3\n");
    assertArrayEquals(new long[] {1392388200000L, 1392388500000L}, trace.timestamps());
    assertArrayEquals(new double[] {0.132, 1000.0}, trace.values());
  }

  @Test
  void read_epochMillisAndCrLf_parses() throws IOException {
    Trace trace = parse("\uFEFFtimestamp,value\r\n1000,1\r\n1000,2\r\n2000,-3.5\r\n");
    assertArrayEquals(new long[] {1000, 1000, 2000}, trace.timestamps());
    assertEquals(3, trace.size());
  }

  @Test
  void read_file_namesTraceAfterFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("cpu.csv");
    Files.writeString(file, "timestamp,value\n1,2\n");
    assertEquals("cpu", TraceReader.read(file).name());
  }

  @Test
  void read_wrongHeader_namesFileAndLine() {
    String message = error("time,val\n1,2\n");
    assertTrue(message.startsWith("t.csv:1:"), message);
    assertTrue(message.contains("timestamp,value"), message);
  }

  @Test
  void read_emptyInput_saysSo() {
    assertTrue(error("").contains("empty"));
  }

  @Test
  void read_badTimestamp_namesFileLineAndText() {
    String message = error("timestamp,value\n1,2\n2014-13-01 00:00:00,3\n");
    assertTrue(message.startsWith("t.csv:3: bad timestamp '2014-13-01 00:00:00'"), message);
  }

  @Test
  void read_badValue_namesFileLineAndText() {
    assertTrue(error("timestamp,value\n1,abc\n").startsWith("t.csv:2: bad value 'abc'"));
    assertTrue(error("timestamp,value\n1,NaN\n").startsWith("t.csv:2: value 'NaN' is not"));
  }

  @Test
  void read_hugeBadField_isCutInTheMessage() {
    String message = error("timestamp,value\n1," + "x".repeat(1_000_000) + "\n");
    assertTrue(message.startsWith("t.csv:2: bad value 'xxxx"), message.substring(0, 40));
    assertTrue(message.length() < 200, "cut to " + message.length());
    assertTrue(message.contains("(1000000 characters)"), message);
  }

  @Test
  void read_wrongFieldCount_namesLine() {
    assertTrue(error("timestamp,value\n1,2\n3\n").startsWith("t.csv:3: expected 2 fields"));
    assertTrue(error("timestamp,value\n1,2,3\n").startsWith("t.csv:2: expected 2 fields"));
  }

  @Test
  void read_timestampGoingBackwards_namesLine() {
    assertTrue(error("timestamp,value\n5,1\n4,1\n").startsWith("t.csv:3: timestamp goes back"));
  }
}
