package org.netweather.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.netweather.api.v1.Registration;
import org.netweather.model.shard.Rendezvous;
import org.netweather.model.shard.Shards;

class ShardRouterTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final AtomicInteger searches = new AtomicInteger();
  private final List<Registration> listed = new ArrayList<>();

  private ShardRouter router() {
    return new ShardRouter(
        () -> {
          searches.incrementAndGet();
          return List.copyOf(listed);
        },
        Duration.ofSeconds(5),
        now::get,
        "ns:8090");
  }

  private static Registration forecaster(String name, boolean sharded) {
    Registration.Builder r =
        Registration.newBuilder().setName(name).setKind("forecaster").setAddress(name + ":1");
    if (sharded) {
      r.putAttributes(ShardRouter.SHARDING, ShardRouter.RENDEZVOUS);
    }
    return r.build();
  }

  @Test
  void sourceHost_isTheLiteralSourceOfANameOrPattern() {
    assertEquals(Optional.of("alpha"), ShardRouter.sourceHost("cpu.availability:alpha"));
    assertEquals(Optional.of("alpha"), ShardRouter.sourceHost("tcp.bandwidth:alpha->beta"));
    assertEquals(Optional.of("alpha"), ShardRouter.sourceHost("*:alpha"));
    assertEquals(Optional.of("alpha"), ShardRouter.sourceHost("*:alpha->*"));
    assertEquals(Optional.empty(), ShardRouter.sourceHost("cpu.availability:*"));
    assertEquals(Optional.empty(), ShardRouter.sourceHost("*:al*->beta"));
    assertEquals(Optional.empty(), ShardRouter.sourceHost("tcp.*:*->beta"));
    assertEquals(Optional.empty(), ShardRouter.sourceHost("no-colon"));
    assertEquals(Optional.empty(), ShardRouter.sourceHost("a:b:c"));
    assertEquals(Shards.ofHost("alpha"), ShardRouter.shardOf("*:alpha->*"));
    assertEquals(-1, ShardRouter.shardOf("cpu.availability:*"));
  }

  @Test
  void current_keepsTheListForTheRefresh_thenAsksAgain() {
    listed.add(forecaster("f1", true));
    ShardRouter r = router();
    r.current();
    r.current();
    assertEquals(1, searches.get());
    now.addAndGet(Duration.ofSeconds(5).toNanos());
    r.current();
    assertEquals(2, searches.get());
    r.invalidate();
    r.current();
    assertEquals(3, searches.get());
  }

  @Test
  void refresh_asksAtOnce_butABurstCostsOneSearch() {
    listed.add(forecaster("f1", true));
    ShardRouter r = router();
    r.current();
    now.addAndGet(Duration.ofMillis(300).toNanos());
    r.refresh();
    r.refresh();
    assertEquals(2, searches.get());
  }

  @Test
  void current_withNoForecaster_asksEveryTime_andAnyIsUnavailable() {
    ShardRouter r = router();
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> r.current().any());
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("ns:8090"));
    listed.add(forecaster("f1", false));
    assertEquals("f1:1", r.current().any());
    assertEquals(2, searches.get());
  }

  @Test
  void current_keepsTheLastList_whenTheNameserverFails() {
    listed.add(forecaster("f1", true));
    AtomicInteger calls = new AtomicInteger();
    ShardRouter r =
        new ShardRouter(
            () -> {
              if (calls.incrementAndGet() > 1) {
                throw Status.UNAVAILABLE.asRuntimeException();
              }
              return List.copyOf(listed);
            },
            Duration.ofSeconds(5),
            now::get,
            "ns");
    r.current();
    now.addAndGet(Duration.ofSeconds(6).toNanos());
    assertEquals("f1:1", r.current().route("cpu.availability:a"));
  }

  @Test
  void unsharded_sendsEverythingToTheFirstForecaster() {
    listed.add(forecaster("f1", false));
    listed.add(forecaster("f2", false));
    ShardRouter.View v = router().current();
    assertFalse(v.sharded());
    assertEquals("f1:1", v.route("cpu.availability:a"));
    assertEquals("f1:1", v.route("cpu.availability:*"));
    assertEquals(List.of("f1:1"), v.addresses());
    assertNull(v.retryTarget(Shards.ofHost("a"), null, "f1:1"));
  }

  @Test
  void sharded_routesByRendezvousOverTheShardedForecastersOnly() {
    listed.add(forecaster("old", false));
    listed.add(forecaster("f1", true));
    listed.add(forecaster("f2", true));
    listed.add(forecaster("f3", true));
    ShardRouter.View v = router().current();
    assertTrue(v.sharded());
    List<String> members = List.of("f1", "f2", "f3");
    for (String host : List.of("a", "b", "c", "d", "e", "f", "g")) {
      String owner = Rendezvous.owner(Shards.ofHost(host), members).orElseThrow();
      assertEquals(owner + ":1", v.route("cpu.availability:" + host));
      assertEquals(owner + ":1", v.route("*:" + host + "->*"));
    }
    assertNull(v.route("cpu.availability:*"), "a pattern over several hosts goes everywhere");
    assertEquals(List.of("f1:1", "f2:1", "f3:1"), v.addresses());
    assertEquals("f1:1", v.route("not a series"), "malformed: any forecaster names the problem");
  }

  @Test
  void retryTarget_isTheHint_elseTheNextRanked() {
    listed.add(forecaster("f1", true));
    listed.add(forecaster("f2", true));
    listed.add(forecaster("f3", true));
    ShardRouter.View v = router().current();
    int shard = Shards.ofHost("a");
    List<String> ranked = Rendezvous.ranked(shard, List.of("f1", "f2", "f3"));
    String owner = ranked.get(0) + ":1";
    String other = ranked.get(2) + ":1";
    assertEquals(other, v.retryTarget(shard, new ShardNotOwned(shard, "", other), owner));
    // A hint to a forecaster no longer listed (killed; the others name it until its registry
    // session ends) is not followed: the next ranked is asked.
    assertEquals(
        ranked.get(1) + ":1", v.retryTarget(shard, new ShardNotOwned(shard, "", "x:9"), owner));
    assertEquals("f3:1", v.retryTarget(shard, new ShardNotOwned(shard, "f3", ""), "f1:1"));
    // No hint, asked the owner: the next ranked, the previous owner during a handoff.
    assertEquals(ranked.get(1) + ":1", v.retryTarget(shard, null, owner));
    // No hint, asked someone else (a stale list): the owner.
    assertEquals(
        owner, v.retryTarget(shard, new ShardNotOwned(shard, "", ""), ranked.get(2) + ":1"));
  }

  @Test
  void shardNotOwned_roundTripsThroughAStatus() {
    StatusRuntimeException e = new ShardNotOwned(17, "f2", "f2:1").toException("not mine");
    assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
    assertEquals(Optional.of(new ShardNotOwned(17, "f2", "f2:1")), ShardNotOwned.of(e));
    assertEquals(
        Optional.empty(),
        ShardNotOwned.of(Status.FAILED_PRECONDITION.withDescription("no data").asException()));
  }
}
