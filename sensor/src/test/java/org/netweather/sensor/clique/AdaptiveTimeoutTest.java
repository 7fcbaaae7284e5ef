package org.netweather.sensor.clique;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AdaptiveTimeoutTest {

  private static final long S = 1_000_000_000L;

  @Test
  void timeoutNanos_beforeAnyCycle_twoAndAHalfPeriods() {
    assertEquals(150 * S, new AdaptiveTimeout(60 * S).timeoutNanos());
  }

  @Test
  void observe_handWorkedCycles_followOriginalGains() {
    AdaptiveTimeout t = new AdaptiveTimeout(60 * S);

    // E = 60, D = 0: 60 + 60 + 0.
    t.observe(60 * S);
    assertEquals(120 * S, t.timeoutNanos());
    // err = 20; E = 60 + 0.15 * 20 = 63; D = 0.15 * 20 = 3: 60 + 63 + 6 = 129.
    t.observe(80 * S);
    assertEquals(129.0 * S, (double) t.timeoutNanos(), 1000.0);
    // err = 137; E = 83.55; D = 3 + 0.15 * 134 = 23.1: 189.75 > 150, clamped to 150.
    t.observe(200 * S);
    assertEquals(150 * S, t.timeoutNanos());
  }

  @Test
  void observe_cyclesFarBelowPeriod_resetToTwoAndAHalfPeriods() {
    // The original's clamp: a time-out at or under period + 1 s is reset to the maximum.
    AdaptiveTimeout t = new AdaptiveTimeout(60 * S);
    for (int i = 0; i < 200; i++) {
      t.observe(S / 2);
    }

    assertEquals(150 * S, t.timeoutNanos());
  }

  @Test
  void onRegenerate_doublesThenClamps() {
    AdaptiveTimeout t = new AdaptiveTimeout(100 * S);
    t.observe(100 * S);
    t.observe(100 * S);
    assertEquals(200 * S, t.timeoutNanos());

    t.onRegenerate();

    assertEquals(250 * S, t.timeoutNanos());
  }
}
