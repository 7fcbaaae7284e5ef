package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Registration;
import org.netweather.testing.FakeClock;

/**
 * Leases across a stall of the nameserver (issue 29, item 4): a stall of two heartbeat periods, or
 * a silence in which no heartbeat reaches it, costs no daemon its registration, and a daemon truly
 * gone still expires. Wall clock and monotonic clock are both fake and move together, except where
 * the test says otherwise.
 */
class NameserverStallTest {
  private static final long TTL_S = 180;
  private static final Duration SWEEP = Duration.ofSeconds(10);

  @TempDir Path dir;
  private final FakeClock clock = FakeClock.atDefaultStart();
  private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
  private Nameserver ns;

  @AfterEach
  void close() throws Exception {
    if (ns != null) {
      ns.close();
    }
  }

  private void open() throws Exception {
    ns = Nameserver.open(dir, clock, nanos::get);
    ns.sweepsEvery(SWEEP);
  }

  /** Time passes with the sweeper running on schedule. */
  private void run(Duration d) {
    for (long left = d.toMillis(); left > 0; left -= SWEEP.toMillis()) {
      pause(Duration.ofMillis(Math.min(left, SWEEP.toMillis())));
      ns.sweep();
    }
  }

  /** Time passes and nothing runs: the process is paused. */
  private void pause(Duration d) {
    clock.advance(d);
    nanos.addAndGet(d.toNanos());
  }

  private String register(String name) {
    return ns.register(
            Registration.newBuilder()
                .setName(name)
                .setKind("sensor")
                .setAddress("10.0.0.1:1")
                .build(),
            TTL_S)
        .leaseId();
  }

  @Test
  void stallOfTwoHeartbeatPeriods_expiresNoLease_andTheHolderRenewsAfter() throws Exception {
    open();
    String alive = register("sensor@alpha");
    register("sensor@gone"); // never heartbeats: truly gone
    run(Duration.ofSeconds(60));
    assertTrue(ns.heartbeat(alive) > 0);
    run(Duration.ofSeconds(50));
    // Paused for 135 s, more than two heartbeat periods (60 s each): alpha's lease ran out at
    // 240 s, during the pause, and its next heartbeat comes a few seconds after it.
    pause(Duration.ofSeconds(135));

    // Whatever runs first after the pause (here a proxy's lookup) sees the grace already.
    assertTrue(ns.lookup("sensor@alpha").isPresent(), "a stall expires no lease");
    assertEquals(1, ns.stallsSeen());
    ns.sweep();
    assertEquals(0, ns.missingCount(), "nothing moved to missing");
    run(Duration.ofSeconds(10));
    long expires = ns.heartbeat(alive);
    assertEquals(clock.millis() + TTL_S * 1000, expires, "renewed by its holder");
    assertEquals(1, ns.stallsSeen(), "a stall is seen once");

    // The daemon that was truly gone got the same one TTL, and then expires.
    assertTrue(ns.lookup("sensor@gone").isPresent());
    for (int i = 0; i < 4; i++) {
      run(Duration.ofSeconds(60));
      assertTrue(ns.heartbeat(alive) > 0);
    }
    assertTrue(ns.lookup("sensor@gone").isEmpty(), "a daemon truly gone still expires");
    assertEquals(1, ns.missingCount());
    assertTrue(ns.lookup("sensor@alpha").isPresent());
    assertEquals(1, ns.stallsSeen());
  }

  @Test
  void withoutAStall_aLeaseExpiresOnTime() throws Exception {
    open();
    String lease = register("sensor@alpha");
    run(Duration.ofSeconds(180));
    assertTrue(ns.lookup("sensor@alpha").isEmpty());
    assertEquals(0, ns.heartbeat(lease));
    assertEquals(0, ns.stallsSeen());
    assertEquals(1, ns.missingCount());
  }

  @Test
  void aStepOfTheWallClock_isNotAStall() throws Exception {
    open();
    register("sensor@alpha");
    run(Duration.ofSeconds(10));
    clock.advance(Duration.ofSeconds(200)); // NTP steps the clock; the monotonic clock does not
    ns.sweep();
    assertEquals(0, ns.stallsSeen());
    assertTrue(ns.lookup("sensor@alpha").isEmpty(), "by the wall clock the lease is over");
  }

  @Test
  void silenceLongerThanAHeartbeatPeriod_thenAHeartbeat_grantsEveryLeaseATtl() throws Exception {
    open();
    String a = register("sensor@a");
    String b = register("sensor@b");
    run(Duration.ofSeconds(60));
    assertTrue(ns.heartbeat(a) > 0);
    assertTrue(ns.heartbeat(b) > 0);
    // Cut off for 176 s: no heartbeat arrives though the sweeper runs. b's lease ends at 240 s.
    run(Duration.ofSeconds(176));
    assertTrue(ns.lookup("sensor@b").isPresent());
    assertEquals(0, ns.stallsSeen(), "silence alone is no proof yet");
    // The partition heals: a's retry arrives first, b's a few seconds after b's lease would end.
    assertTrue(ns.heartbeat(a) > 0);
    assertEquals(1, ns.stallsSeen());
    run(Duration.ofSeconds(10));
    assertTrue(ns.lookup("sensor@b").isPresent(), "b's lease was granted one more TTL");
    assertTrue(ns.heartbeat(b) > 0);
    assertEquals(0, ns.missingCount());
  }

  @Test
  void heartbeatsAtTheirUsualPace_areNoSilence() throws Exception {
    open();
    String a = register("sensor@a");
    for (int i = 0; i < 5; i++) {
      run(Duration.ofSeconds(60));
      assertTrue(ns.heartbeat(a) > 0);
    }
    assertEquals(0, ns.stallsSeen());
  }
}
