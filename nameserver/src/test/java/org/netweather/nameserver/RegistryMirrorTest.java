package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.Registration;
import org.netweather.registry.CliqueRecord;
import org.netweather.registry.DaemonRecord;
import org.netweather.registry.HostRecord;
import org.netweather.registry.LocalRegistry;
import org.netweather.registry.RegistryLocation;
import org.netweather.testing.FakeClock;

/** The nameserver's registrations and cliques reach the site's registry, leases do not. */
class RegistryMirrorTest {
  @TempDir Path dir;
  private final FakeClock clock = FakeClock.atDefaultStart();

  private static Registration reg(String name, String kind, Map<String, String> attributes) {
    return Registration.newBuilder()
        .setName(name)
        .setKind(kind)
        .setAddress(name.substring(name.indexOf('@') + 1) + ":1")
        .putAllAttributes(attributes)
        .build();
  }

  @Test
  void mirror_copiesStateHeldThenEveryChange() throws Exception {
    try (LocalRegistry registry = LocalRegistry.open(dir.resolve("registry"));
        Nameserver ns = Nameserver.open(dir.resolve("ns"), clock)) {
      // Held before the mirror starts: copied when it does.
      ns.register(reg("memory@m1", "memory", Map.of()), 30);
      RegistryMirror mirror = new RegistryMirror(registry);
      ns.mirrorTo(mirror);
      ns.register(reg("sensor@alpha", "sensor", Map.of("cluster", "c1")), 30);
      String lease = ns.register(reg("sensor@beta", "sensor", Map.of()), 30).leaseId();
      ns.heartbeat(lease);
      ns.putClique(
          Clique.newBuilder()
              .setName("c1-net")
              .addMembers("alpha")
              .addMembers("beta")
              .setPeriodSeconds(60)
              .build());
      ns.register(reg("sensor@gamma", "sensor", Map.of("cluster", "c1")), 30);
      ns.unregister("sensor@gamma");
      ns.putClique(
          Clique.newBuilder()
              .setName("gone")
              .addMembers("alpha")
              .addMembers("beta")
              .setPeriodSeconds(60)
              .build());
      ns.deleteClique("gone");
      mirror.close(); // waits for the copies queued

      assertEquals(
          List.of(new DaemonRecord("memory@m1", "memory", "m1:1", Map.of())),
          registry.daemons().stream().filter(d -> d.kind().equals("memory")).toList());
      assertEquals(Set.of("c1", RegistryMirror.DEFAULT_CLUSTER), registry.clusters());
      assertEquals(
          List.of(new HostRecord("c1", "sensor@alpha", "alpha:1", Map.of("cluster", "c1"))),
          registry.hosts("c1"));
      assertEquals(
          List.of("sensor@beta"),
          registry.hosts(RegistryMirror.DEFAULT_CLUSTER).stream().map(HostRecord::host).toList());
      assertEquals(
          List.of(new CliqueRecord("c1-net", List.of("alpha", "beta"), 60, List.of(), Map.of())),
          registry.cliques());
    }
  }

  @Test
  void registrySetting_badValue_isRefusedNamingTheSetting() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                NameserverProperties.defaults()
                    .with(NameserverProperties.REGISTRY, "zk://zk1:2181/netweather"));
    assertTrue(e.getMessage().contains("registry"), e.getMessage());
    assertTrue(e.getMessage().contains("zookeeper://"), e.getMessage());
    assertEquals(RegistryLocation.LOCAL_REGISTRY, NameserverProperties.defaults().registry);
    assertEquals(
        RegistryLocation.parse("zookeeper://zk1,zk2:2182/nw/site1"),
        NameserverProperties.defaults()
            .with(NameserverProperties.REGISTRY, "zookeeper://zk1,zk2:2182/nw/site1")
            .registry);
  }
}
