package org.netweather.nameserver.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.netweather.model.shard.Rendezvous;
import org.netweather.testing.FakeClock;

/** The placement rules on a fake clock: first placement, stickiness, replacement, moves. */
class ShardPlacementTest {
  private static final Duration HOUR = Duration.ofHours(1);
  private final FakeClock clock =
      new FakeClock(Instant.parse("2026-11-26T12:00:00Z").toEpochMilli());
  private final ShardPlacement rules = new ShardPlacement(clock, HOUR);

  @Test
  void fill_placesEveryEmptyShardOnItsRendezvousOwner_andLeavesPlacedOnesAlone() {
    List<String> live = List.of("m1", "m2", "m3");
    List<List<String>> empty = PlacementPart.empty(3, -1).shards();
    List<List<String>> filled = rules.fill(3, empty, live);
    for (int i = 0; i < PlacementPart.SHARDS; i++) {
      int shard = 3 * PlacementPart.SHARDS + i;
      assertEquals(List.of(Rendezvous.owner(shard, live).orElseThrow()), filled.get(i));
    }
    // Placed shards stay, even when the membership changes: that is what sticky means.
    assertSame(filled, rules.fill(3, filled, List.of("m4")));
    assertSame(empty, rules.fill(3, empty, List.of()), "nobody live: nothing placed");
  }

  @Test
  void replace_movesNothingWhileGoneLessThanReplaceAfter_thenSpreadsOverTheSurvivors() {
    List<String> all = List.of("m1", "m2", "m3", "m4");
    List<List<String>> placed = rules.fill(0, PlacementPart.empty(0, -1).shards(), all);
    List<String> survivors = List.of("m1", "m3", "m4");
    rules.observe(survivors, all); // m2 missed from now

    clock.advance(HOUR.minusSeconds(1));
    assertSame(placed, rules.replace(0, placed, survivors), "a blip, however long, under 1 h");
    clock.advance(Duration.ofSeconds(2));
    List<List<String>> replaced = rules.replace(0, placed, survivors);

    Map<String, Integer> took = new TreeMap<>();
    for (int i = 0; i < PlacementPart.SHARDS; i++) {
      String was = placed.get(i).get(0);
      String now = replaced.get(i).get(0);
      if (!was.equals("m2")) {
        assertEquals(was, now, "only the gone memory-host's shards move");
      } else {
        // The next-ranked live member: the owner among the survivors.
        assertEquals(Rendezvous.owner(i, survivors).orElseThrow(), now);
        took.merge(now, 1, Integer::sum);
      }
    }
    assertEquals(Set.of("m1", "m3", "m4"), took.keySet(), "spread over every survivor: " + took);
  }

  @Test
  void observe_aMemoryHostBackInTime_isNotGone_andItsClockStartsAgainNextTime() {
    rules.observe(List.of("m1"), List.of("m1", "m2"));
    assertEquals(clock.instant(), rules.goneSince("m2").orElseThrow());
    clock.advance(Duration.ofMinutes(50));
    rules.observe(List.of("m1", "m2"), List.of("m1", "m2"));
    assertTrue(rules.goneSince("m2").isEmpty());
    clock.advance(Duration.ofMinutes(50));
    rules.observe(List.of("m1"), List.of("m1", "m2"));
    assertEquals(clock.instant(), rules.goneSince("m2").orElseThrow());
    assertTrue(!rules.replaceable("m2"), "gone 0 s now, though 100 min since first missed");
  }

  @Test
  void move_putsTheTargetFirst_onlyOnTheShardsChosen_andTwiceIsOnce() {
    List<List<String>> placed = new ArrayList<>(PlacementPart.empty(1, -1).shards());
    placed.set(0, List.of("m1"));
    placed.set(1, List.of("m2"));
    int first = PlacementPart.SHARDS;
    List<List<String>> moved = rules.move(1, placed, s -> s == first || s == first + 5, "m9");
    assertEquals(List.of("m9"), moved.get(0));
    assertEquals(List.of("m2"), moved.get(1));
    assertEquals(List.of("m9"), moved.get(5), "an unplaced shard is placed");
    assertSame(moved, rules.move(1, moved, s -> s == first, "m9"));
  }

  @Test
  void codec_roundTripsAPart_andRefusesDamageNamingTheKey() {
    List<List<String>> shards = new ArrayList<>(PlacementPart.empty(0, -1).shards());
    shards.set(0, List.of("memory@alpha"));
    shards.set(255, List.of("memory@beta", "memory@alpha"));
    byte[] bytes = PlacementCodec.encode(shards);
    assertEquals(shards, PlacementCodec.decode("placement/memory/0", bytes));
    assertTrue(bytes.length < 300, bytes.length + " bytes");

    byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 3);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PlacementCodec.decode("placement/memory/0", cut));
    assertTrue(e.getMessage().startsWith("placement/memory/0 ends before"), e.getMessage());
    byte[] newer = bytes.clone();
    newer[0] = 9;
    assertThrows(IllegalArgumentException.class, () -> PlacementCodec.decode("k", newer));
  }

  @Test
  void replaceAfter_readsDurations_andRefusesLessThanAMinuteNamingTheValue() {
    assertEquals(HOUR, ReplaceAfter.parse("1h"));
    assertEquals(Duration.ofSeconds(90), ReplaceAfter.parse("90s"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ReplaceAfter.parse("10s"));
    assertTrue(e.getMessage().contains("10s is shorter than 1m"), e.getMessage());
    assertTrue(ReplaceAfter.problem("soon").contains("'soon' is not a duration"));
  }
}
