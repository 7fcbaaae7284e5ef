package org.netweather.sensor.spool;

/**
 * One spooled measurement.
 *
 * @param seq the spool's sequence number, unique and increasing; what {@link Spool#acknowledge}
 *     takes
 * @param series the series name, e.g. {@code cpu.availability:alpha}
 * @param timestampMs Unix epoch milliseconds of the observation
 * @param value the observed value
 */
public record SpoolEntry(long seq, String series, long timestampMs, double value) {}
