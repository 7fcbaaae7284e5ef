package org.netweather.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test says so. Thread-safe. */
public final class FakeClock extends Clock {
  private final AtomicLong millis;

  public FakeClock(long startMillis) {
    this.millis = new AtomicLong(startMillis);
  }

  /** A clock at a fixed, recent-looking instant. */
  public static FakeClock atDefaultStart() {
    return new FakeClock(1_790_000_000_000L);
  }

  public void advance(Duration d) {
    millis.addAndGet(d.toMillis());
  }

  public void set(long newMillis) {
    millis.set(newMillis);
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
