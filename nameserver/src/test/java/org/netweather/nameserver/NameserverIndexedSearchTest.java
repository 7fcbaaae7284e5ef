package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Registration;
import org.netweather.testing.FakeClock;

/** Searches that name exact values use the attribute index and find exactly what a scan would. */
class NameserverIndexedSearchTest {
  @TempDir Path dir;
  private final FakeClock clock = FakeClock.atDefaultStart();
  private Nameserver ns;

  @BeforeEach
  void setUp() throws Exception {
    ns = Nameserver.open(dir, clock);
    for (int i = 0; i < 50; i++) {
      ns.register(sensor("h" + i, i % 2 == 0 ? "even" : "odd"), 60);
    }
    ns.register(
        Registration.newBuilder().setName("memory@m").setKind("memory").setAddress("m:1").build(),
        60);
  }

  @AfterEach
  void tearDown() throws Exception {
    ns.close();
  }

  private static Registration sensor(String host, String cluster) {
    return Registration.newBuilder()
        .setName("sensor@" + host)
        .setKind("sensor")
        .setAddress(host + ":8060")
        .putAttributes("host", host)
        .putAttributes("cluster", cluster)
        .build();
  }

  private List<String> names(String filter) {
    return ns.search(Filter.parse(filter)).stream().map(Registration::getName).toList();
  }

  @Test
  void membersLookUp_findsTheNamedHosts_inNameOrder() {
    assertEquals(
        List.of("sensor@h12", "sensor@h3", "sensor@h7"),
        names("(&(kind=sensor)(|(host=h7)(host=h3)(host=h12)(host=nobody)))"));
  }

  @Test
  void indexedAndScannedParts_combine() {
    assertEquals(
        List.of("sensor@h10", "sensor@h11"), names("(&(|(host=h10)(host=h11))(!(cluster=none)))"));
    assertEquals(
        List.of("sensor@h10", "sensor@h12"),
        names("(&(cluster=even)(|(host=h10)(host=h11)(host=h12*)))"),
        "one alternative needs a scan, so the index of cluster=even bounds it");
    assertEquals(List.of("sensor@h10"), names("(&(cluster=even)(|(host=h10)(host=h11)))"));
    assertEquals(25, names("(&(kind=sensor)(cluster=odd))").size());
    assertEquals(List.of("memory@m"), names("(kind=memory)"));
    assertEquals(11, names("(host=h1*)").size(), "a wildcard scans: h1, h10..h19");
  }

  @Test
  void theIndexFollowsReRegistrationsAndUnregistrations_andExpiry() {
    ns.register(sensor("h3", "moved"), 60);
    assertEquals(List.of(), names("(&(host=h3)(cluster=odd))"));
    assertEquals(List.of("sensor@h3"), names("(cluster=moved)"));

    ns.unregister("sensor@h3");
    assertEquals(List.of(), names("(host=h3)"));

    clock.advance(java.time.Duration.ofSeconds(61));
    assertEquals(List.of(), names("(host=h4)"), "an expired lease is not found");
  }

  @Test
  void candidates_areNullWhenAnyAlternativeNeedsAScan() {
    Map<String, Set<String>> none = Map.of();
    assertNull(Filter.parse("(|(host=a)(!(host=b)))").candidates((a, v) -> Set.of()), "not: scan");
    assertNull(Filter.parse("(host=a*)").candidates((a, v) -> Set.of()), "wildcard: scan");
    assertEquals(
        Set.of("x", "y"),
        Filter.parse("(|(host=a)(host=b))")
            .candidates((a, v) -> Set.of(v.equals("a") ? "x" : "y")));
    assertEquals(none.keySet(), Filter.parse("(&(host=a)(kind=*))").candidates((a, v) -> Set.of()));
  }
}
