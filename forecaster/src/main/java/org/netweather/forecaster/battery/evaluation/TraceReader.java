package org.netweather.forecaster.battery.evaluation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;

/**
 * Reads a trace CSV: a header {@code timestamp,value}, then one measurement per line with the
 * timestamp as {@code YYYY-MM-DD HH:MM:SS} (UTC) or epoch milliseconds. Blank lines are skipped;
 * anything else that does not fit (bytes that are not UTF-8 too) is rejected with an {@link
 * IllegalArgumentException} naming the file and line, because a silently skipped row would shift
 * every later forecast.
 *
 * <pre>{@code
 * Trace trace = TraceReader.read(Path.of("traces/nab/ec2_cpu_utilization_24ae8d.csv"));
 * }</pre>
 */
public final class TraceReader {
  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");

  private TraceReader() {}

  /** Reads the trace in {@code file}; its name is the file name without {@code .csv}. */
  public static Trace read(Path file) throws IOException {
    String fileName = file.getFileName().toString();
    String name =
        fileName.toLowerCase(java.util.Locale.ROOT).endsWith(".csv")
            ? fileName.substring(0, fileName.length() - 4)
            : fileName;
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return read(name, file.toString(), reader);
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          file + ": not UTF-8 text (a binary file?); expected a CSV trace 'timestamp,value'");
    }
  }

  /**
   * Reads a trace from {@code reader}; {@code source} names it in error messages.
   *
   * @throws IllegalArgumentException on a missing or wrong header, a malformed line, a value that
   *     is not a finite number, or a timestamp earlier than the one before it
   */
  public static Trace read(String name, String source, Reader reader) throws IOException {
    BufferedReader lines =
        reader instanceof BufferedReader buffered ? buffered : new BufferedReader(reader);
    String header = lines.readLine();
    if (header == null) {
      throw new IllegalArgumentException(source + ": empty file, expected header timestamp,value");
    }
    if (header.startsWith("\uFEFF")) {
      header = header.substring(1);
    }
    if (!header.strip().replace(" ", "").equalsIgnoreCase("timestamp,value")) {
      throw new IllegalArgumentException(
          source + ":1: expected header 'timestamp,value', found '" + cut(header.strip()) + "'");
    }
    long[] times = new long[1024];
    double[] values = new double[1024];
    int n = 0;
    int lineNumber = 1;
    String line;
    while ((line = lines.readLine()) != null) {
      lineNumber++;
      String text = line.strip();
      if (text.isEmpty()) {
        continue;
      }
      int comma = text.indexOf(',');
      if (comma < 0 || text.indexOf(',', comma + 1) >= 0) {
        throw new IllegalArgumentException(
            source
                + ":"
                + lineNumber
                + ": expected 2 fields 'timestamp,value', found '"
                + cut(text)
                + "'");
      }
      long time = timestamp(text.substring(0, comma).strip(), source, lineNumber);
      double value = value(text.substring(comma + 1).strip(), source, lineNumber);
      if (n > 0 && time < times[n - 1]) {
        throw new IllegalArgumentException(
            source
                + ":"
                + lineNumber
                + ": timestamp goes backwards ('"
                + cut(text.substring(0, comma).strip())
                + "' is before the previous line)");
      }
      if (n == times.length) {
        times = Arrays.copyOf(times, n * 2);
        values = Arrays.copyOf(values, n * 2);
      }
      times[n] = time;
      values[n] = value;
      n++;
    }
    return new Trace(name, Arrays.copyOf(times, n), Arrays.copyOf(values, n));
  }

  private static long timestamp(String text, String source, int line) {
    if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        // too long for a long; reported below
      }
    } else {
      try {
        return LocalDateTime.parse(text.replace('T', ' '), DATE_TIME)
            .toInstant(ZoneOffset.UTC)
            .toEpochMilli();
      } catch (DateTimeParseException e) {
        // reported below
      }
    }
    throw new IllegalArgumentException(
        source
            + ":"
            + line
            + ": bad timestamp '"
            + cut(text)
            + "' (expected YYYY-MM-DD HH:MM:SS or epoch milliseconds)");
  }

  private static double value(String text, String source, int line) {
    double value;
    try {
      value = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          source + ":" + line + ": bad value '" + cut(text) + "' (expected a number)");
    }
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(
          source + ":" + line + ": value '" + cut(text) + "' is not finite");
    }
    return value;
  }

  /** Text from the file as quoted in a message: at most 60 characters of it. */
  static String cut(String text) {
    return text.length() <= 60
        ? text
        : text.substring(0, 60) + "... (" + text.length() + " characters)";
  }
}
