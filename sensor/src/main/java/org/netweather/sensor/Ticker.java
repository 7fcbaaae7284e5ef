package org.netweather.sensor;

/**
 * A source of monotonic nanoseconds, injected wherever logic needs to know how long something took.
 *
 * <p>Production code uses {@link #system()}; tests pass a fake that they advance by hand, so no
 * test depends on how fast the machine is.
 */
@FunctionalInterface
public interface Ticker {

  /** Monotonic nanoseconds; only differences between two readings mean anything. */
  long nanoTime();

  /** The JVM's monotonic clock. */
  static Ticker system() {
    return System::nanoTime;
  }
}
