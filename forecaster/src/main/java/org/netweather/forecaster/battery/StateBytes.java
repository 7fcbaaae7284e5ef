package org.netweather.forecaster.battery;

/**
 * Estimates of heap footprint for a 64-bit JVM with compressed references (12-byte object header,
 * 16-byte array header, 8-byte alignment), good enough to budget per-series state.
 */
final class StateBytes {
  private StateBytes() {}

  /** An object with {@code fieldBytes} of fields, not counting what the fields refer to. */
  static long object(int fieldBytes) {
    return align(12L + fieldBytes);
  }

  static long doubles(int length) {
    return align(16L + 8L * length);
  }

  static long floats(int length) {
    return align(16L + 4L * length);
  }

  static long booleans(int length) {
    return align(16 + length);
  }

  static long ints(int length) {
    return align(16L + 4L * length);
  }

  static long references(int length) {
    return align(16L + 4L * length);
  }

  private static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }
}
