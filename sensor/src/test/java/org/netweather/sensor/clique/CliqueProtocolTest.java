package org.netweather.sensor.clique;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.netweather.sensor.clique.FakeCliqueNetwork.Probe;

/** Whole cliques of registries on one fake clock. */
class CliqueProtocolTest {

  private static final Duration PERIOD = Duration.ofSeconds(60);
  private static final long SEC = 1_000_000_000L;

  private final FakeCliqueNetwork net = new FakeCliqueNetwork();

  private void clique(String name, String... members) {
    for (String m : members) {
      if (!net.hosts.containsKey(m)) {
        net.add(m);
      }
    }
    for (String m : members) {
      net.hosts.get(m).join(new CliqueConfig(name, List.of(members), PERIOD));
    }
  }

  private CliqueStatus status(String host, String clique) {
    var all = net.hosts.get(host).status();
    net.clock.runPending();
    return all.join().stream().filter(s -> s.name().equals(clique)).findFirst().orElseThrow();
  }

  private List<Probe> probesBy(String host) {
    return net.probes.stream().filter(p -> p.host().equals(host)).toList();
  }

  @Test
  void circulation_threeMembers_eachProbesTheOthersOncePerPeriodWithoutOverlap() {
    clique("lan", "a", "b", "c");

    net.clock.advance(Duration.ofMinutes(10).plusSeconds(30));

    for (String h : List.of("a", "b", "c")) {
      List<Probe> mine = probesBy(h);
      // A turn every 60 s for 10.5 minutes: 11 turns of 2 probes each.
      assertEquals(22, mine.size(), h + " probes " + mine.size());
      Set<String> peers = mine.stream().map(Probe::peer).collect(Collectors.toSet());
      assertEquals(2, peers.size());
      assertFalse(peers.contains(h));
      assertEquals(0, status(h, "lan").regenerations());
      assertEquals(1, status(h, "lan").instance());
    }
    net.assertNoOverlapWithin("lan");
    List<Probe> byA = probesBy("a");
    for (int i = 2; i < byA.size(); i += 2) {
      assertEquals(60 * SEC, byA.get(i).start() - byA.get(i - 2).start());
    }
    assertEquals(List.of("a->b#1.1", "b->c#1.2", "c->a#1.3", "a->b#1.4"), net.passes.subList(0, 4));
  }

  @Test
  void holderDies_survivorsRegenerateWithNextInstanceWithinTimeout() {
    clique("lan", "a", "b", "c");
    net.clock.advance(Duration.ofSeconds(3));
    assertEquals("HOLDING", status("b", "lan").state());

    long killedAt = net.clock.nanoTime();
    net.kill("b");
    net.clock.advance(Duration.ofMinutes(10));

    long resumed =
        net.attempts.stream()
            .filter(p -> !p.host().equals("b") && p.start() > killedAt)
            .mapToLong(Probe::start)
            .min()
            .orElseThrow();
    assertTrue(
        resumed - killedAt <= (long) (2.5 * 60 * SEC),
        "resumed after " + (resumed - killedAt) / SEC + " s");
    CliqueStatus a = status("a", "lan");
    CliqueStatus c = status("c", "lan");
    assertEquals(2, a.instance());
    assertEquals(2, c.instance());
    assertEquals(1, a.regenerations() + c.regenerations());
    // Turns go on between a and c after the loss.
    assertTrue(probesBy("a").stream().filter(p -> p.start() > resumed).count() >= 4);
    assertTrue(probesBy("c").stream().filter(p -> p.start() > resumed).count() >= 4);
    net.assertNoOverlapWithin("lan");
  }

  @Test
  void pacerDies_successorRegeneratesWithinTimeoutPlusOneStagger() {
    clique("lan", "a", "b", "c");
    net.clock.advance(Duration.ofSeconds(61));
    assertEquals("HOLDING", status("a", "lan").state());

    long killedAt = net.clock.nanoTime();
    net.kill("a");
    net.clock.advance(Duration.ofMinutes(10));

    long resumed =
        net.attempts.stream()
            .filter(p -> p.start() > killedAt)
            .mapToLong(Probe::start)
            .min()
            .orElseThrow();
    // Stagger for 3 members at 60 s: 2 * (19 s experiment + 5 s pass time-out) = 48 s.
    assertTrue(
        resumed - killedAt <= (150 + 48) * SEC,
        "resumed after " + (resumed - killedAt) / SEC + " s");
    assertEquals(1, status("b", "lan").regenerations());
    assertEquals(0, status("c", "lan").regenerations());
    assertEquals("b", status("c", "lan").originator());
    net.assertNoOverlapWithin("lan");
  }

  @Test
  void unreachableMember_skippedWithRingDistanceAddedToSequence() {
    net.add("c");
    clique("lan", "a", "b", "c", "d");
    net.dead.add("c");
    net.hosts.get("c").close();

    net.clock.advance(Duration.ofMinutes(5));

    assertTrue(net.passes.contains("b->c#1.2"));
    assertTrue(net.passes.contains("b->d#1.3"), net.passes.toString());
    assertEquals(0, status("a", "lan").regenerations());
    assertEquals(0, status("d", "lan").regenerations());
    assertTrue(probesBy("d").size() >= 6);
    net.assertNoOverlapWithin("lan");
  }

  @Test
  void silentMember_skippedAfterPassTimeout() {
    clique("lan", "a", "b", "c");
    net.silent.add("b");

    net.clock.advance(Duration.ofMinutes(3));

    assertTrue(net.passes.contains("a->b#1.1"));
    assertTrue(net.passes.contains("a->c#1.2"), net.passes.toString());
    assertTrue(probesBy("c").size() >= 4);
  }

  @Test
  void twoCliquesOnOneHost_tokensCirculateIndependently() {
    clique("lan", "a", "b");
    clique("wan", "a", "c");

    net.clock.advance(Duration.ofMinutes(5));

    assertEquals(List.of("lan", "wan"), net.hosts.get("a").cliques());
    assertTrue(net.probes.stream().filter(p -> p.clique().equals("lan")).count() >= 10);
    assertTrue(net.probes.stream().filter(p -> p.clique().equals("wan")).count() >= 10);
    assertTrue(
        net.probes.stream().noneMatch(p -> p.clique().equals("lan") && p.peer().equals("c")));
    net.assertNoOverlapWithin("lan");
    net.assertNoOverlapWithin("wan");
    assertEquals(1, status("a", "lan").instance());
    assertEquals(1, status("a", "wan").instance());
  }

  @Test
  void join_createdAtFirstMemberOnly_othersJoinWhenTheTokenArrives() {
    net.add("a");
    net.add("b");
    net.add("c");
    net.hosts.get("a").join(new CliqueConfig("lan", List.of("a", "b", "c"), PERIOD));

    net.clock.advance(Duration.ofMinutes(3));

    assertEquals(List.of("lan"), net.hosts.get("c").cliques());
    assertTrue(probesBy("b").size() >= 4);
    assertTrue(probesBy("c").size() >= 4);
  }

  @Test
  void leave_memberLeaves_othersSkipItAndItStopsProbing() {
    clique("lan", "a", "b", "c");
    net.clock.advance(Duration.ofMinutes(2).plusSeconds(10));
    net.hosts.get("c").leave("lan");
    long leftAt = net.clock.nanoTime();

    net.clock.advance(Duration.ofMinutes(5));

    assertTrue(probesBy("c").stream().noneMatch(p -> p.start() > leftAt));
    assertTrue(probesBy("a").stream().filter(p -> p.start() > leftAt).count() >= 8);
    assertEquals(List.of(), net.hosts.get("c").cliques());
    assertEquals(0, status("a", "lan").regenerations() + status("b", "lan").regenerations());
  }

  @Test
  void reconfigure_newMemberAdded_joinsAtTheNextTurn() {
    clique("lan", "a", "b");
    net.add("c");
    net.clock.advance(Duration.ofSeconds(30));

    net.hosts.get("a").join(new CliqueConfig("lan", List.of("a", "b", "c"), PERIOD));
    net.clock.advance(Duration.ofMinutes(3));

    assertTrue(probesBy("c").size() >= 4);
    assertTrue(probesBy("a").stream().anyMatch(p -> p.peer().equals("c")));
    net.assertNoOverlapWithin("lan");
  }
}
