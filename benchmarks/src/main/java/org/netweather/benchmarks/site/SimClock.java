package org.netweather.benchmarks.site;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The site's simulated time: starts in the past and runs at a settable rate (10x while filling,
 * then 1x), so measurements carry simulated timestamps that never pass the real clock. It maps a
 * simulated timestamp back to the real instant it was due, which is where ack and forecast delays
 * are measured from.
 */
final class SimClock {
  private record Segment(long realNanos, long simMs, double rate) {}

  private final LongSupplier nanos;
  private final TreeMap<Long, Segment> bySim = new TreeMap<>();
  private volatile Segment current;

  SimClock(LongSupplier nanos, long startSimMs, double rate) {
    this.nanos = nanos;
    this.current = new Segment(nanos.getAsLong(), startSimMs, rate);
    bySim.put(startSimMs, current);
  }

  long nowMs() {
    return simAt(current, nanos.getAsLong());
  }

  double rate() {
    return current.rate;
  }

  /** Changes the rate from now on; time stays continuous. */
  synchronized void setRate(double rate) {
    long now = nanos.getAsLong();
    Segment s = new Segment(now, simAt(current, now), rate);
    bySim.put(s.simMs, s);
    current = s;
  }

  /** The real instant ({@link System#nanoTime()} scale) at which {@code simMs} was due. */
  synchronized long realNanosOf(long simMs) {
    Map.Entry<Long, Segment> e = bySim.floorEntry(simMs);
    Segment s = e == null ? bySim.firstEntry().getValue() : e.getValue();
    return s.realNanos + (long) ((simMs - s.simMs) * 1e6 / s.rate);
  }

  private static long simAt(Segment s, long realNanos) {
    return s.simMs + (long) ((realNanos - s.realNanos) / 1e6 * s.rate);
  }
}
