package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Registration;
import org.netweather.nameserver.JournalEntry.Registered;
import org.netweather.registry.HostRecord;
import org.netweather.registry.LocalRegistry;
import org.netweather.registry.RegistryEvent;
import org.netweather.testing.FakeClock;

/**
 * Who removes a record nobody lists in a live set, one TTL after its registration: the nameserver
 * that granted its lease while that one is alive (its live set may just be late), anyone once it is
 * gone.
 */
class UnheldRecordsTest {
  private static final String A = "nameserver@a";
  private static final String B = "nameserver@b";

  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();

  @Test
  void recordOfALiveNameserver_notInItsLiveSetPastATtl_isLeftToIt() throws Exception {
    try (LocalRegistry local = LocalRegistry.open(dir.resolve("registry"));
        LocalRegistry atA = local.peer();
        Nameserver b = Nameserver.open(dir.resolve("b"), clock)) {
      // A granted the lease and is alive, but has not published its live set yet (its registry
      // thread is behind, as on a loaded machine).
      atA.join(SiteSync.GROUP, A, Map.of());
      atA.putHost(SharedRecords.host(lease("s", 30_000), A));
      SteppedRegistry registry = new SteppedRegistry(local);
      registry.join(SiteSync.GROUP, B, Map.of());
      try (SiteSync sync = SiteSync.start(registry, B, b)) {
        assertTrue(b.lookup("sensor@s").isPresent(), "listed at B, A's line to follow");
        clock.advance(Duration.ofSeconds(31));
        readAgain(registry, "c1");

        assertEquals(
            List.of("sensor@s"), hostNames(local.hosts("c1")), "A's record is A's to remove");
        assertTrue(b.lookup("sensor@s").isPresent(), "still listed at B");
      }
    }
  }

  @Test
  void recordNobodyHolds_isRemovedByTheNameserverThatGrantedIt() throws Exception {
    try (LocalRegistry local = LocalRegistry.open(dir.resolve("registry"));
        Nameserver a = Nameserver.open(dir.resolve("a"), clock)) {
      SteppedRegistry registry = new SteppedRegistry(local);
      registry.join(SiteSync.GROUP, A, Map.of());
      try (SiteSync sync = SiteSync.start(registry, A, a)) {
        a.register(ClusterSensors.sensor("s"), 30);
        assertEquals(List.of("sensor@s"), hostNames(local.hosts("c1")));
        // Its sensor never heartbeats: the lease expires here, and nobody else holds it.
        clock.advance(Duration.ofSeconds(31));
        a.sweep();
        readAgain(registry, "c1");

        assertEquals(List.of(), hostNames(local.hosts("c1")), "removed by A");
      }
    }
  }

  /** Has the nameserver read {@code cluster} again, and waits until it has finished with it. */
  private static void readAgain(SteppedRegistry registry, String cluster) throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    registry.afterDaemons.add(done::countDown);
    registry.listener.onChange(new RegistryEvent(RegistryEvent.Area.HOSTS, cluster));
    // Read after the cluster, on the same thread: once it is read, the cluster has been dealt with.
    registry.listener.onChange(new RegistryEvent(RegistryEvent.Area.DAEMON, "any"));
    assertTrue(done.await(10, TimeUnit.SECONDS), "read within 10 s");
  }

  private Registered lease(String host, long ttlMs) {
    Registration r =
        ClusterSensors.sensor(host).toBuilder().setRegisteredMs(clock.millis()).build();
    return new Registered("L-" + host, ttlMs, r);
  }

  private static List<String> hostNames(List<HostRecord> hosts) {
    return hosts.stream().map(HostRecord::host).toList();
  }
}
