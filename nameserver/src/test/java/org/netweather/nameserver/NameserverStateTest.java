package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Registration;
import org.netweather.testing.FakeClock;

/** What reaches the disk: heartbeats nothing, churn a bounded amount, and what survives. */
class NameserverStateTest {
  @TempDir Path dir;
  private final FakeClock clock = FakeClock.atDefaultStart();

  private static Registration reg(String name, String kind, int valueBytes) {
    Registration.Builder b =
        Registration.newBuilder().setName(name).setKind(kind).setAddress("localhost:1");
    for (int i = 0; valueBytes > 0; i++, valueBytes -= 1000) {
      b.putAttributes("pad" + i, "x".repeat(Math.min(1000, valueBytes)));
    }
    return b.build();
  }

  private long bytesOnDisk() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.mapToLong(p -> p.toFile().length()).sum();
    }
  }

  @Test
  void heartbeats_writeNothing_andAfterACrashEveryHeldLeaseGetsAFullTtl() throws Exception {
    Nameserver ns = Nameserver.open(dir, clock);
    String lease = ns.register(reg("memory@m1", "memory", 10), 30).leaseId();
    ns.assign(List.of("cpu.availability:a"));
    long before = bytesOnDisk();
    for (int i = 0; i < 100; i++) { // 100 x 10 s: far beyond the first TTL
      clock.advance(Duration.ofSeconds(10));
      assertEquals(clock.millis() + 30_000, ns.heartbeat(lease));
    }
    assertEquals(before, bytesOnDisk());
    // Crash: no close. The renewals were never written, yet the lease is held again.
    Nameserver reopened = Nameserver.open(dir, clock);
    clock.advance(Duration.ofSeconds(29));
    assertTrue(reopened.lookup("memory@m1").isPresent());
    assertEquals(clock.millis() + 30_000, reopened.heartbeat(lease));
    assertEquals(
        "memory@m1", reopened.assign(List.of("cpu.availability:a")).get(0).getMemoryHost());
    clock.advance(Duration.ofSeconds(31));
    assertFalse(reopened.lookup("memory@m1").isPresent());
    assertEquals(0, reopened.heartbeat(lease));
  }

  @Test
  void registerUnregisterChurn_keepsTheFilesBounded_andTheLiveStateSurvivesRestart()
      throws Exception {
    long minBytes = 64 << 10;
    Nameserver ns = Nameserver.open(dir, clock, minBytes);
    ns.register(reg("memory@keep", "memory", 100), 60);
    ns.assign(List.of("cpu.availability:a", "memory.free:a"));
    long peak = 0;
    for (int i = 0; i < 2_000; i++) { // ~4 KiB per registration: ~8 MB of history
      ns.register(reg("sensor@churn" + (i % 7), "sensor", 4_000), 60);
      ns.unregister("sensor@churn" + (i % 7));
      peak = Math.max(peak, bytesOnDisk());
    }
    // The live state is tiny: the files stay within the compaction bound plus one record.
    assertTrue(peak < 2 * minBytes, "peak " + peak);
    Nameserver reopened = Nameserver.open(dir, clock, minBytes);
    assertTrue(reopened.lookup("memory@keep").isPresent());
    assertFalse(reopened.lookup("sensor@churn0").isPresent());
    assertEquals(1, reopened.liveRegistrations());
    assertEquals(2, reopened.directorySize());
    reopened.close();
  }

  @Test
  void forgottenSeries_stayForgottenAfterRestart_andCanBeAssignedAgain() throws Exception {
    Nameserver ns = Nameserver.open(dir, clock);
    ns.register(reg("memory@m1", "memory", 10), 60);
    ns.assign(List.of("tcp.latency:a->b", "tcp.latency:a->c", "cpu.availability:a"));
    assertEquals(2, ns.forget("tcp.*", "memory@m1"));
    assertEquals(0, ns.forget("tcp.*", "memory@m1"));
    Nameserver reopened = Nameserver.open(dir, clock);
    assertEquals(
        List.of("cpu.availability:a"),
        reopened.directory("").stream().map(a -> a.getSeries()).toList());
    reopened.assign(List.of("tcp.latency:a->b"));
    assertEquals(2, reopened.directorySize());
    reopened.close();
  }
}
