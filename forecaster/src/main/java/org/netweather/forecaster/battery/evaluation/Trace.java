package org.netweather.forecaster.battery.evaluation;

/**
 * A measured series read from a trace file: parallel arrays of timestamps (epoch milliseconds, UTC)
 * and values, in file order.
 *
 * @param name the file name without {@code .csv}
 * @param timestamps epoch milliseconds of each measurement
 * @param values the measurements, all finite
 */
public record Trace(String name, long[] timestamps, double[] values) {
  public Trace {
    if (timestamps.length != values.length) {
      throw new IllegalArgumentException("timestamps and values differ in length");
    }
  }

  public int size() {
    return values.length;
  }
}
