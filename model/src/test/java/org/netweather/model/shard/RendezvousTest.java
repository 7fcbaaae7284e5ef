package org.netweather.model.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RendezvousTest {
  private static final List<String> FOUR = List.of("fc-a", "fc-b", "fc-c", "fc-d");

  @Test
  void everyShardHasOneOwnerAndTheyShareTheShardsEvenly() {
    Map<String, Integer> owned = new HashMap<>();
    for (int s = 0; s < Shards.COUNT; s++) {
      owned.merge(Rendezvous.owner(s, FOUR).orElseThrow(), 1, Integer::sum);
    }
    assertEquals(new HashSet<>(FOUR), owned.keySet());
    owned.values().forEach(n -> assertTrue(n >= 900 && n <= 1150, "a member owns " + n));
  }

  @Test
  void whenAMemberLeavesOnlyItsShardsMoveAndTheySpreadOverEverySurvivor() {
    List<String> survivors = List.of("fc-a", "fc-c", "fc-d");
    Map<String, Integer> gained = new HashMap<>();
    for (int s = 0; s < Shards.COUNT; s++) {
      String before = Rendezvous.owner(s, FOUR).orElseThrow();
      String after = Rendezvous.owner(s, survivors).orElseThrow();
      if (!before.equals("fc-b")) {
        assertEquals(before, after, "shard " + s);
      } else {
        gained.merge(after, 1, Integer::sum);
      }
    }
    assertEquals(new HashSet<>(survivors), gained.keySet());
    gained.values().forEach(n -> assertTrue(n > 200, "a survivor gained " + n));
  }

  @Test
  void theOwnerIsFirstInTheRankingAndOrderDoesNotMatter() {
    for (int s = 0; s < 64; s++) {
      List<String> ranked = Rendezvous.ranked(s, FOUR);
      assertEquals(new HashSet<>(FOUR), new HashSet<>(ranked));
      assertEquals(Rendezvous.owner(s, FOUR).orElseThrow(), ranked.get(0));
      assertEquals(
          Optional.of(ranked.get(0)), Rendezvous.owner(s, List.of("fc-d", "fc-c", "fc-b", "fc-a")));
    }
    assertEquals(Optional.empty(), Rendezvous.owner(0, List.of()));
  }
}
