package org.netweather.sensor.spool;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A measurement to spool, before it has a sequence number.
 *
 * @param series series name; at most 65535 bytes of UTF-8
 * @param timestampMs Unix epoch milliseconds
 * @param value the value
 */
public record SpoolRecord(String series, long timestampMs, double value) {

  public SpoolRecord {
    Objects.requireNonNull(series, "series");
    if (series.getBytes(StandardCharsets.UTF_8).length > 0xFFFF) {
      throw new IllegalArgumentException("series name longer than 65535 bytes");
    }
  }
}
