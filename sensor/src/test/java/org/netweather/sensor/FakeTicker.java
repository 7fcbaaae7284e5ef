package org.netweather.sensor;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link Ticker} that moves only when a test advances it. */
public final class FakeTicker implements Ticker {

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  @Override
  public long nanoTime() {
    return nanos.get();
  }

  public FakeTicker advance(Duration d) {
    return advance(d.toNanos());
  }

  public FakeTicker advance(long deltaNanos) {
    nanos.addAndGet(deltaNanos);
    return this;
  }
}
