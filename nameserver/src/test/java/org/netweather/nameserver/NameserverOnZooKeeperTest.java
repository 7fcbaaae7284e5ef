package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.inprocess.InProcessServerBuilder;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Registration;
import org.netweather.registry.HostRecord;
import org.netweather.registry.Member;
import org.netweather.registry.RegistryLocation;
import org.netweather.registry.zookeeper.ZooKeeperRegistry;
import org.netweather.testing.GrpcCleanupExtension;

/**
 * {@code registry: zookeeper://...}: the nameserver joins the site's nameservers and writes its
 * registrations into ZooKeeper, where another process (another nameserver) reads them.
 */
class NameserverOnZooKeeperTest {
  @TempDir Path dir;

  @Test
  void nameserver_withZooKeeperRegistry_sharesRegistrationsAndPresence() throws Exception {
    try (TestingServer zk = new TestingServer()) {
      String url = "zookeeper://" + zk.getConnectString() + "/site";
      NameserverProperties p =
          NameserverProperties.defaults()
              .with(NameserverProperties.DATA_DIR, dir.toString())
              .with(NameserverProperties.HOST, "n")
              .with(NameserverProperties.METRICS_PORT, -1)
              .with(NameserverProperties.REGISTRY, url);
      try (ZooKeeperRegistry other = ZooKeeperRegistry.open(RegistryLocation.parse(url))) {
        String self;
        try (NameserverServer ns =
            NameserverServer.start(
                p, InProcessServerBuilder.forName(GrpcCleanupExtension.newName()))) {
          ns.nameserver()
              .register(
                  Registration.newBuilder()
                      .setName("sensor@alpha")
                      .setKind("sensor")
                      .setAddress("alpha:8060")
                      .putAttributes("cluster", "c1")
                      .build(),
                  30);
          awaitTrue(() -> other.hosts("c1").size() == 1);
          HostRecord h = other.hosts("c1").get(0);
          assertEquals("sensor@alpha", h.host());
          assertEquals("alpha:8060", h.address());
          assertEquals("c1", h.attributes().get("cluster"));
          // With its lease, so that another nameserver can adopt it.
          assertEquals("30000", h.attributes().get(SharedRecords.TTL_MS));
          awaitTrue(() -> other.members("nameservers").size() == 1);
          self = other.members("nameservers").get(0).id();
          assertTrue(other.daemon(self).isPresent(), "the nameserver's own record");
          assertEquals("nameserver", other.daemon(self).orElseThrow().kind());
        }
        // Closed: its membership ends with its session; its records stay for the site.
        awaitTrue(
            () -> other.members("nameservers").stream().map(Member::id).noneMatch(self::equals));
        assertEquals(1, other.hosts("c1").size());
      }
    }
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20 s");
      }
      Thread.sleep(20);
    }
  }
}
