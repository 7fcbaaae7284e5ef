package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.registry.LocalRegistry;
import org.netweather.registry.RegistryEvent;
import org.netweather.testing.FakeClock;

/**
 * A registration whose write to the site's registry lands while the nameserver is reading that
 * cluster: the read answers without the new record (ZooKeeper answered it just before the write),
 * and the nameserver must not take that for "removed elsewhere" and drop the lease it has just
 * granted. It did, and the sensor's next heartbeat was answered NOT_FOUND: the leases that expired
 * in the registry simulation while every sensor heartbeated in time.
 */
class RegistrationDuringReadTest {
  private static final String SELF = "nameserver@a";

  @TempDir Path dir;

  @Test
  void leaseGrantedWhileItsClusterIsRead_isKeptAndRenewed() throws Exception {
    FakeClock clock = FakeClock.atDefaultStart();
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (LocalRegistry local = LocalRegistry.open(dir.resolve("registry"));
        Nameserver ns = Nameserver.open(dir.resolve("ns"), clock)) {
      SteppedRegistry registry = new SteppedRegistry(local);
      registry.join(SiteSync.GROUP, SELF, Map.of());
      try (SiteSync sync = SiteSync.start(registry, SELF, ns)) {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch write = new CountDownLatch(1);
        registry.beforePutHost =
            () -> {
              writing.countDown();
              await(write);
            };
        CompletableFuture<String> lease =
            CompletableFuture.supplyAsync(
                () -> ns.register(ClusterSensors.sensor("late"), 60).leaseId(), caller);
        await(writing);
        clock.advance(Duration.ofSeconds(1));

        // The cluster is read (for an earlier change) just before the write lands; the
        // registration then completes before the read is reconciled.
        CountDownLatch reread = new CountDownLatch(1);
        CountDownLatch rereadGo = new CountDownLatch(1);
        registry.afterHosts.add(
            () -> {
              write.countDown();
              lease.join();
            });
        registry.afterHosts.add(
            () -> {
              reread.countDown(); // the write's own event: the cluster read again
              await(rereadGo);
            });
        registry.listener.onChange(new RegistryEvent(RegistryEvent.Area.HOSTS, "c1"));

        await(reread);
        long expires = ns.heartbeat(lease.get(10, TimeUnit.SECONDS));
        rereadGo.countDown();
        assertTrue(
            expires > clock.millis(),
            "the sensor's first heartbeat must renew the lease it was just granted");
        assertTrue(ns.lookup("sensor@late").isPresent());
      }
    } finally {
      caller.shutdownNow();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new AssertionError("not within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
