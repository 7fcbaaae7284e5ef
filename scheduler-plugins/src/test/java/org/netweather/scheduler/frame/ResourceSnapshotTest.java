package org.netweather.scheduler.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceSnapshotTest {
  private static ResourceSnapshot twoHosts() {
    return ResourceSnapshot.builder("c")
        .takenMs(5)
        .parameter("size", 100)
        .host(HostResources.of("a", 0.9, 1e9, Map.of()))
        .host(HostResources.of("b", 0.5, 1e9, Map.of()))
        .link("a", "b", Estimate.of(100, 3), Estimate.of(1, 0.1))
        .build();
  }

  @Test
  void withHosts_replacesHostsAndKeepsPairsAndParameters() {
    ResourceSnapshot horizon =
        twoHosts()
            .withHosts(
                h ->
                    h.name().equals("a")
                        ? new HostResources(
                            "a",
                            Estimate.of(0.6, 0.05),
                            h.memoryFree(),
                            h.interferenceSend(),
                            h.interferenceRecv(),
                            h.parameters())
                        : h);
    assertEquals(0.6, horizon.host(0).cpuAvailability().value());
    assertEquals(0.05, horizon.host(0).cpuAvailability().error());
    assertEquals(0.5, horizon.host(1).cpuAvailability().value());
    assertEquals(100, horizon.bandwidth(0, 1));
    assertEquals(3, horizon.link(0, 1).orElseThrow().bandwidth().error());
    assertEquals(100, horizon.parameter("size", 0));
    assertEquals(5, horizon.takenMs());
  }

  @Test
  void withHosts_renamingAHost_isRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> twoHosts().withHosts(h -> HostResources.of(h.name() + "x", 1, 1, Map.of())));
  }
}
