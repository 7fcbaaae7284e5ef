package org.netweather.sensor.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ActiveProbeFuseTest {

  /** Checks until the fuse asks for a probe (the probing check included), moving by {@code d}. */
  private static int checksUntilProbe(ActiveProbeFuse fuse, double d) {
    for (int i = 1; i <= 1000; i++) {
      if (fuse.onCheck(d)) {
        return i;
      }
    }
    throw new AssertionError("never probed");
  }

  @Test
  void onCheck_firstCheck_probes() {
    assertTrue(new ActiveProbeFuse(10, 1).onCheck(0.05));
  }

  @Test
  void onCheck_steadyModerateMoves_probesEveryActiveEvery() {
    ActiveProbeFuse fuse = new ActiveProbeFuse(10, 1);
    fuse.onCheck(0.05);
    fuse.onProbe(Double.NaN);

    assertEquals(10, checksUntilProbe(fuse, 0.05));
  }

  @Test
  void onCheck_wildMoves_burnTwiceAsFast() {
    ActiveProbeFuse fuse = new ActiveProbeFuse(10, 1);
    fuse.onProbe(Double.NaN);

    assertEquals(5, checksUntilProbe(fuse, 0.2));
  }

  @Test
  void onCheck_tameMoves_burnHalfAsFast() {
    ActiveProbeFuse fuse = new ActiveProbeFuse(10, 1);
    fuse.onProbe(Double.NaN);

    assertEquals(20, checksUntilProbe(fuse, 0.005));
  }

  @Test
  void onCheck_wildMovesButDutyFloor_waitsForMinimumChecks() {
    ActiveProbeFuse fuse = new ActiveProbeFuse(10, 8);
    fuse.onProbe(Double.NaN);

    assertEquals(8, checksUntilProbe(fuse, 0.5));
  }

  @Test
  void onProbe_errorChangedWildly_doublesBurn() {
    ActiveProbeFuse fuse = new ActiveProbeFuse(10, 1);

    fuse.onProbe(0.3);

    assertEquals(200, fuse.burn(), 1e-9);
    assertEquals(5, checksUntilProbe(fuse, 0.05));
  }

  @Test
  void onProbe_errorSteady_halvesBurnButNotBelowAQuarter() {
    ActiveProbeFuse fuse = new ActiveProbeFuse(10, 1);

    for (int i = 0; i < 5; i++) {
      fuse.onProbe(0.0);
    }

    assertEquals(25, fuse.burn(), 1e-9);
    assertEquals(40, checksUntilProbe(fuse, 0.05));
  }

  @Test
  void onProbe_errorChangedModerately_keepsBurn() {
    ActiveProbeFuse fuse = new ActiveProbeFuse(10, 1);

    fuse.onProbe(0.05);

    assertEquals(100, fuse.burn(), 1e-9);
    assertFalse(fuse.onCheck(0.05));
  }
}
