package org.netweather.testing;

import java.time.Duration;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

/** Waits in tests for a value another thread changes, without asserting on how long it takes. */
public final class Poll {
  private Poll() {}

  /**
   * Reads {@code value} every 10 ms until {@code done} holds or {@code timeout} passes; returns the
   * last value read, for the caller to assert on.
   */
  public static long until(LongSupplier value, LongPredicate done, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long v = value.getAsLong();
    while (!done.test(v) && System.nanoTime() < deadline) {
      Thread.sleep(10);
      v = value.getAsLong();
    }
    return v;
  }
}
