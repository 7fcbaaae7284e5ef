package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.netweather.api.v1.Registration;
import org.netweather.nameserver.JournalEntry.Registered;
import org.netweather.registry.HostRecord;

/** Registrations and live sets as the site's registry keeps them, and back. */
class SharedRecordsTest {
  private static Registered lease(Registration r) {
    return new Registered("L1", 30_000, r.toBuilder().setRegisteredMs(1_000).build());
  }

  @Test
  void sensor_roundTrip_keepsItsLeaseAndShowsNoBookkeeping() {
    Registration r =
        Registration.newBuilder()
            .setName("sensor@a")
            .setKind("sensor")
            .setAddress("a:8060")
            .putAttributes("cluster", "c1")
            .putAttributes("nws.lease", "forged")
            .build();
    HostRecord h = SharedRecords.host(lease(r), "nameserver@n");
    assertEquals("c1", h.cluster());
    assertEquals("L1", h.attributes().get(SharedRecords.LEASE), "the caller's copy is overwritten");

    SharedRecords.Shared back = SharedRecords.read(h);
    assertEquals("hosts/c1", back.scope());
    assertEquals("nameserver@n", back.by());
    assertEquals("L1", back.lease().leaseId());
    assertEquals(30_000, back.lease().ttlMs());
    assertEquals(Map.of("cluster", "c1"), back.lease().registration().getAttributesMap());
    assertEquals(1_000, back.lease().registration().getRegisteredMs());
    assertEquals(31_000, back.lease().registration().getExpiresMs());
  }

  @Test
  void daemon_roundTrip_andScopes() {
    Registration m =
        Registration.newBuilder().setName("memory@m").setKind("memory").setAddress("m:1").build();
    SharedRecords.Shared back = SharedRecords.read(SharedRecords.daemon(lease(m), "nameserver@n"));
    assertEquals(SharedRecords.DAEMONS, back.scope());
    assertEquals("memory", back.lease().registration().getKind());
    assertEquals(SharedRecords.DAEMONS, SharedRecords.scope(m));
    // A cluster that cannot be a key part is kept under the default cluster.
    Registration odd =
        Registration.newBuilder().setKind("sensor").putAttributes("cluster", "a/b").build();
    assertEquals("hosts/default", SharedRecords.scope(odd));
    assertEquals("live/hosts/c1", SharedRecords.liveKey("hosts/c1"));
  }

  @Test
  void liveSet_roundTrip_dropsEmptyLines() {
    Map<String, Set<String>> live = new TreeMap<>();
    live.put("nameserver@a", new java.util.TreeSet<>(Set.of("sensor@y", "sensor@x")));
    live.put("nameserver@b", Set.of());
    byte[] text = SharedRecords.writeLive(live);
    assertEquals("nameserver@a sensor@x sensor@y\n", new String(text, UTF_8));
    assertEquals(
        Map.of("nameserver@a", Set.of("sensor@x", "sensor@y")), SharedRecords.parseLive(text));
    assertEquals(Map.of(), SharedRecords.parseLive(new byte[0]));
  }

  private static final java.nio.charset.Charset UTF_8 = java.nio.charset.StandardCharsets.UTF_8;
}
