package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.MissingDaemon;
import org.netweather.api.v1.Registration;
import org.netweather.testing.FakeClock;

/**
 * Daemons that are gone stay listed as missing for a while, within a bound on how many and how
 * long, instead of vanishing from the registry.
 */
class MissingDaemonsTest {
  @TempDir Path dir;
  private final FakeClock clock = FakeClock.atDefaultStart();

  private static Registration reg(String name) {
    return Registration.newBuilder()
        .setName(name)
        .setKind("sensor")
        .setAddress("10.0.0.1:8060")
        .putAttributes("host", name.substring(name.indexOf('@') + 1))
        .build();
  }

  @Test
  void expiredLease_isListedMissing_withItsLastHeartbeat_untilItRegistersAgain() throws Exception {
    try (Nameserver ns = Nameserver.open(dir, clock, 100, Duration.ofHours(24))) {
      long start = clock.millis();
      String lease = ns.register(reg("sensor@alpha"), 30).leaseId();
      clock.advance(Duration.ofSeconds(20));
      ns.heartbeat(lease); // last heard of now
      long lastHeartbeat = clock.millis();
      clock.advance(Duration.ofSeconds(31));
      assertTrue(ns.search(Filter.parse("")).isEmpty());

      List<MissingDaemon> missing = ns.missing("", 0).items();
      assertEquals(1, missing.size());
      assertEquals("sensor@alpha", missing.get(0).getRegistration().getName());
      assertEquals("10.0.0.1:8060", missing.get(0).getRegistration().getAddress());
      assertEquals("lease expired", missing.get(0).getReason());
      assertEquals(lastHeartbeat, missing.get(0).getLastSeenMs());
      assertEquals(lastHeartbeat + 30_000, missing.get(0).getRegistration().getExpiresMs());
      assertTrue(lastHeartbeat > start);

      ns.register(reg("sensor@alpha"), 30);
      assertTrue(ns.missing("", 0).items().isEmpty());
    }
  }

  @Test
  void unregistered_isListedMissing_andForgottenAfterTheAgeLimit() throws Exception {
    try (Nameserver ns = Nameserver.open(dir, clock, 100, Duration.ofHours(24))) {
      ns.register(reg("sensor@beta"), 30);
      clock.advance(Duration.ofSeconds(5));
      assertTrue(ns.unregister("sensor@beta"));
      List<MissingDaemon> missing = ns.missing("", 0).items();
      assertEquals(1, missing.size());
      assertEquals("unregistered", missing.get(0).getReason());
      assertEquals(clock.millis(), missing.get(0).getLastSeenMs());

      clock.advance(Duration.ofHours(23));
      assertEquals(1, ns.missing("", 0).items().size());
      clock.advance(Duration.ofHours(1));
      assertTrue(ns.missing("", 0).items().isEmpty());
    }
  }

  @Test
  void manyDepartures_keepOnlyTheNewestUpToTheCap_andLeaveTheRegistry() throws Exception {
    try (Nameserver ns = Nameserver.open(dir, clock, 1_000, Duration.ofHours(24))) {
      for (int i = 0; i < 5_000; i++) {
        ns.register(reg(String.format("sensor@h%05d", i)), 1);
        if (i % 1_000 == 999) {
          clock.advance(Duration.ofSeconds(2));
          ns.sweep(); // expired leases leave the registrations for the bounded list
        }
      }
      assertEquals(0, ns.liveRegistrations());
      assertEquals(1_000, ns.missingCount());
      List<MissingDaemon> first = ns.missing("", 10).items();
      assertEquals("sensor@h04000", first.get(0).getRegistration().getName());
      assertFalse(ns.lookup("sensor@h00000").isPresent());
    }
  }

  @Test
  void departures_boundedByCount_forgetTheFirstGoneFirst() {
    Departures d = new Departures(3, Duration.ofHours(1));
    for (int i = 0; i < 5_000_000; i++) {
      d.add(reg("sensor@h" + (i % 10)), i, "lease expired", i);
    }
    assertEquals(3, d.size());
    List<String> names =
        d.page("", 0).items().stream().map(m -> m.getRegistration().getName()).toList();
    assertEquals(List.of("sensor@h7", "sensor@h8", "sensor@h9"), names);
  }
}
