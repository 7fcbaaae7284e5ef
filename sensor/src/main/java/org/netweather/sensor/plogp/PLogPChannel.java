package org.netweather.sensor.plogp;

/**
 * The probe operations pLogP measurement needs between this sensor and one peer, each returning
 * elapsed seconds. The sensor's probe transport implements it; tests use a simulated link.
 *
 * <pre>
 *   burst(n, m)           n messages of m bytes back to back ──▶, then one 0-byte reply ◀──
 *   roundTrip(m)          m bytes ──▶, 0 bytes ◀──
 *   sendOverhead(m)       how long the send call of m bytes keeps the caller busy
 *   receiveOverhead(m, d) the peer sends m bytes; wait d, then time the receive call
 * </pre>
 */
public interface PLogPChannel {
  double burst(int count, int bytes);

  double roundTrip(int bytes);

  double sendOverhead(int bytes);

  double receiveOverhead(int bytes, double delaySeconds);

  /** Cost of reading the clock once, subtracted from every timing (0 if negligible). */
  default double clockOverhead() {
    return 0;
  }
}
