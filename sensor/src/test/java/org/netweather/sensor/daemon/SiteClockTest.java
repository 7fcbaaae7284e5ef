package org.netweather.sensor.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The sensor's estimate of the site's time, on a fake local clock and zero round trips. */
class SiteClockTest {
  private static final long TRUE_NOW = 1_790_000_000_000L;
  private final AtomicLong local = new AtomicLong();
  private final SiteClock clock = new SiteClock(local::get);
  private final List<String> changes = new ArrayList<>();

  {
    clock.listener((correcting, offset) -> changes.add(correcting + " " + offset));
  }

  @Test
  void withinTheBound_stampsWithTheLocalClock() {
    local.set(TRUE_NOW + 20_000);
    clock.heard(TRUE_NOW, 0, "ns", false);
    assertEquals(-20_000, clock.offsetMs());
    assertFalse(clock.correcting());
    assertEquals(TRUE_NOW + 20_000, clock.nowMs());
    assertEquals(TRUE_NOW + 20_000, clock.deliverable(TRUE_NOW + 20_000));
    assertEquals(List.of(), changes);
  }

  @Test
  void pastTheBound_stampsWithTheSiteTime_andSaysSoOnce() {
    local.set(TRUE_NOW + 600_000);
    clock.heard(TRUE_NOW, 0, "ns", false);
    assertTrue(clock.correcting());
    assertEquals(TRUE_NOW, clock.nowMs());
    // a later answer within a second of the estimate leaves the stamps steady
    local.addAndGet(10_000);
    clock.heard(TRUE_NOW + 10_400, 0, "ns", false);
    assertEquals(-600_000, clock.offsetMs());
    assertEquals(List.of("true -600000"), changes);
  }

  @Test
  void aStampAFastClockMadeBeforeTheOffsetWasKnown_isMovedWhenDelivered() {
    local.set(TRUE_NOW + 600_000);
    long early = local.get() - 2_000; // taken 2 s ago, uncorrected
    clock.heard(TRUE_NOW, 0, "m1:1", true);
    assertEquals(TRUE_NOW - 2_000, clock.deliverable(early));
    long corrected = clock.nowMs();
    assertEquals(corrected, clock.deliverable(corrected), "a corrected stamp is left alone");
  }

  @Test
  void theMemoryHostsAnswersWinOverTheNameservers() {
    local.set(TRUE_NOW);
    clock.heard(TRUE_NOW + 3_600_000, 0, "ns", false); // the nameserver's clock is an hour off
    assertEquals(3_600_000, clock.offsetMs());
    clock.heard(TRUE_NOW, 0, "m1:1", true);
    assertEquals(0, clock.offsetMs());
    clock.heard(TRUE_NOW + 3_600_000, 0, "ns", false);
    assertEquals(0, clock.offsetMs(), "the nameserver no longer moves it");
    assertEquals(List.of("true 3600000", "false 0"), changes);
  }

  @Test
  void theRoundTripIsHalvedIntoTheEstimate() {
    local.set(TRUE_NOW + 100_000);
    clock.heard(TRUE_NOW, 4_000_000_000L, "ns", false); // 4 s round trip: answered 2 s ago
    assertEquals(-98_000, clock.offsetMs());
  }
}
