package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.netweather.forecaster.ShardOwnership.Peer;
import org.netweather.forecaster.ShardOwnership.Shares;
import org.netweather.model.shard.Rendezvous;
import org.netweather.model.shard.ShardSet;
import org.netweather.model.shard.Shards;
import org.netweather.testing.FakeClock;

/** Shares of three forecasters as members come and go, with a fake clock for every bound. */
class ShardOwnershipTest {
  private static final long SETTLE = 2_000;
  private static final long HANDOFF = 60_000;
  private static final long WARM = 30_000;
  private static final List<String> IDS = List.of("fc1", "fc2", "fc3");

  private final FakeClock clock = FakeClock.atDefaultStart();
  private final Map<String, ShardOwnership> site = new TreeMap<>();
  private final Map<String, Boolean> up = new TreeMap<>();

  ShardOwnershipTest() {
    for (String id : IDS) {
      site.put(id, new ShardOwnership(id, clock::millis, SETTLE, HANDOFF, WARM));
      up.put(id, true);
    }
  }

  /** What the registry lists: every member up, with the shards it serves as its warm data. */
  private List<Peer> peers() {
    List<Peer> out = new ArrayList<>();
    up.forEach(
        (id, isUp) -> {
          if (isUp) {
            out.add(new Peer(id, id + ":8070", site.get(id).shares().serving()));
          }
        });
    return out;
  }

  /** Every member sees the list; a couple of rounds, since warm data changes with each. */
  private void gossip() {
    for (int round = 0; round < 3; round++) {
      List<Peer> peers = peers();
      up.forEach(
          (id, isUp) -> {
            if (isUp) {
              site.get(id).members(peers);
            }
          });
    }
  }

  private void warmAll() {
    up.forEach(
        (id, isUp) -> {
          if (isUp) {
            site.get(id).warmed(site.get(id).shares().following());
          }
        });
  }

  private Shares of(String id) {
    return site.get(id).shares();
  }

  @Test
  void threeMembers_splitTheShards_eachAboutAThird_everyShardOneOwner() {
    gossip();
    warmAll();
    gossip();
    for (String id : IDS) {
      int n = of(id).owned().size();
      assertTrue(n > Shards.COUNT / 3 - 150 && n < Shards.COUNT / 3 + 150, id + " owns " + n);
      assertEquals(of(id).owned(), of(id).serving(), id + " serves exactly what it owns");
    }
    for (int s = 0; s < Shards.COUNT; s++) {
      int servers = 0;
      for (String id : IDS) {
        servers += of(id).serving().contains(s) ? 1 : 0;
      }
      assertEquals(1, servers, "shard " + s);
      assertTrue(of(Rendezvous.owner(s, IDS).orElseThrow()).owned().contains(s));
    }
  }

  @Test
  void newOwner_servesOnlyOnceWarm_oldOwnerKeepsServingUntilThen() {
    up.put("fc3", false);
    gossip();
    warmAll();
    gossip();
    ShardSet fc1Before = of("fc1").serving().copy();

    up.put("fc3", true);
    gossip();
    // fc3 owns a third now but has none of it warm; fc1 and fc2 still serve everything.
    assertTrue(of("fc3").owned().size() > 1000);
    assertTrue(of("fc3").serving().isEmpty());
    assertEquals(fc1Before, of("fc1").serving());
    assertEquals(Shards.COUNT, of("fc1").serving().size() + of("fc2").serving().size());
    int moving = 0;
    while (!of("fc3").owned().contains(moving)) {
      moving++;
    }
    String oldOwner = fc1Before.contains(moving) ? "fc1" : "fc2";
    assertEquals(Optional.of(oldOwner), site.get("fc3").hint(moving).map(Peer::id));

    site.get("fc3").warmed(of("fc3").following());
    gossip();
    // fc3 says it is warm: the old owners drop exactly those shards, and nothing else.
    for (int s = 0; s < Shards.COUNT; s++) {
      boolean fc3 = of("fc3").owned().contains(s);
      assertEquals(fc3, of("fc3").serving().contains(s), "fc3 serves " + s);
      assertEquals(!fc3 && fc1Before.contains(s), of("fc1").serving().contains(s), "fc1 " + s);
      assertEquals(!fc3, of("fc1").following().contains(s) || of("fc2").following().contains(s));
    }
    assertEquals(Optional.of("fc3"), site.get("fc1").hint(moving).map(Peer::id));
  }

  @Test
  void memberGone_afterTheSettleTime_onlyItsShardsMove_spreadOverBothSurvivors() {
    gossip();
    warmAll();
    gossip();
    Map<String, ShardSet> before = new TreeMap<>();
    IDS.forEach(id -> before.put(id, of(id).owned().copy()));

    up.put("fc2", false);
    gossip();
    clock.advance(Duration.ofMillis(SETTLE - 1));
    site.get("fc1").tick();
    site.get("fc3").tick();
    assertEquals(before.get("fc1"), of("fc1").owned(), "a blip shorter than the settle time");
    assertEquals(before.get("fc3"), of("fc3").owned());

    clock.advance(Duration.ofMillis(1));
    gossip();
    int toFc1 = 0;
    int toFc3 = 0;
    for (int s = 0; s < Shards.COUNT; s++) {
      if (before.get("fc1").contains(s)) {
        assertTrue(of("fc1").owned().contains(s), "fc1 keeps " + s);
      }
      if (before.get("fc3").contains(s)) {
        assertTrue(of("fc3").owned().contains(s), "fc3 keeps " + s);
      }
      if (before.get("fc2").contains(s)) {
        toFc1 += of("fc1").owned().contains(s) ? 1 : 0;
        toFc3 += of("fc3").owned().contains(s) ? 1 : 0;
      }
    }
    assertEquals(before.get("fc2").size(), toFc1 + toFc3, "every shard of fc2 has an owner");
    assertTrue(toFc1 > 400 && toFc3 > 400, "spread: " + toFc1 + " and " + toFc3);
    // The dead member's shards are warmed at once: followed, not served until warm.
    assertTrue(of("fc1").following().size() == of("fc1").owned().size());
    warmAll();
    gossip();
    assertEquals(Shards.COUNT, of("fc1").serving().size() + of("fc3").serving().size());
  }

  @Test
  void memberBackWithinTheSettleTime_movesNothing() {
    gossip();
    warmAll();
    gossip();
    ShardSet fc1 = of("fc1").serving().copy();
    up.put("fc2", false);
    gossip();
    clock.advance(Duration.ofMillis(SETTLE / 2));
    up.put("fc2", true);
    gossip();
    clock.advance(Duration.ofMillis(SETTLE * 10));
    site.get("fc1").tick();
    assertEquals(fc1, of("fc1").owned());
    assertEquals(fc1, of("fc1").serving());
  }

  @Test
  void handedOffShard_isDroppedAfterTheBound_ifTheNewOwnerNeverSaysItIsWarm() {
    up.put("fc3", false);
    gossip();
    warmAll();
    gossip();
    up.put("fc3", true);
    gossip();
    int handed = of("fc1").serving().size() - of("fc1").owned().size();
    assertTrue(handed > 400, "fc1 hands " + handed + " shards off");
    clock.advance(Duration.ofMillis(HANDOFF - 1));
    site.get("fc1").tick();
    assertEquals(handed, of("fc1").serving().size() - of("fc1").owned().size());
    clock.advance(Duration.ofMillis(1));
    site.get("fc1").tick();
    assertEquals(of("fc1").owned(), of("fc1").serving());
    assertEquals(of("fc1").owned(), of("fc1").following());
  }

  @Test
  void unwarmedShard_isServedAfterTheWarmBound() {
    gossip();
    assertTrue(of("fc1").serving().isEmpty());
    clock.advance(Duration.ofMillis(WARM));
    site.get("fc1").tick();
    assertEquals(of("fc1").owned(), of("fc1").serving());
  }

  @Test
  void seriesShard_isTheModelsShard_forHostAndPairSeries() {
    for (String name :
        List.of(
            "cpu.availability:alpha", "tcp.bandwidth:alpha->beta", "user.x:my_host-1.example")) {
      assertEquals(Shards.of(name), SeriesForecasts.shardOf(name), name);
    }
  }

  @Test
  void notListed_servesNothing() {
    gossip();
    warmAll();
    gossip();
    site.get("fc1").members(List.of(new Peer("fc2", "fc2:8070", ShardSet.none())));
    clock.advance(Duration.ofMillis(SETTLE));
    site.get("fc1").tick();
    assertTrue(of("fc1").serving().isEmpty());
    assertTrue(of("fc1").following().isEmpty());
    assertFalse(of("fc1").owned().contains(0));
  }
}
