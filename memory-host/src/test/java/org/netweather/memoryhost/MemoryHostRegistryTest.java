package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.inprocess.InProcessServerBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.registry.Member;
import org.netweather.registry.RegistryLocation;
import org.netweather.registry.zookeeper.ZooKeeperRegistry;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.Poll;

/**
 * {@code registry: zookeeper://...}: the memory-host joins the registry's memory group under its
 * registration name, with its address, for as long as it runs; that is what the nameservers place
 * shards on.
 */
class MemoryHostRegistryTest {
  @TempDir Path dir;

  @Test
  void memoryHost_withZooKeeperRegistry_isAMemberUnderItsRegistrationName_untilItStops()
      throws Exception {
    try (TestingServer zk = new TestingServer()) {
      String url = "zookeeper://" + zk.getConnectString() + "/site";
      try (ZooKeeperRegistry other = ZooKeeperRegistry.open(RegistryLocation.parse(url))) {
        MemoryHostProperties p =
            MemoryHostProperties.defaults()
                .with(MemoryHostProperties.DATA_DIR, dir.toString())
                .with(MemoryHostProperties.NAME, "memory@store1")
                .with(MemoryHostProperties.HOST, "store1")
                .with(MemoryHostProperties.ADVERTISE, "store1.example")
                .with(MemoryHostProperties.NAMESERVER, "localhost:1") // not needed here
                .with(MemoryHostProperties.METRICS_PORT, -1)
                .with(MemoryHostProperties.REGISTRY, url);
        try (MemoryHostServer m =
            MemoryHostServer.start(
                p, InProcessServerBuilder.forName(GrpcCleanupExtension.newName()))) {
          List<Member> members = other.members("memory");
          assertEquals(1, members.size(), "joined before start returned");
          assertEquals("memory@store1", members.get(0).id());
          assertEquals(Map.of("address", "store1.example:" + m.getPort()), members.get(0).data());
        }
        assertEquals(
            0,
            Poll.until(() -> other.members("memory").size(), n -> n == 0, Duration.ofSeconds(20)),
            "left when it stopped");
      }
    }
  }

  @Test
  void registrySetting_refusesWhatIsNotARegistry_namingIt() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> MemoryHostProperties.defaults().with(MemoryHostProperties.REGISTRY, "zk1:2181"));
    assertTrue(e.getMessage().contains("zk1:2181"), e.getMessage());
  }
}
