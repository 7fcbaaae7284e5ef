package org.netweather.sensor.clique;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One registry on its own, with tokens handed in by the test. */
class CliqueMemberTest {

  private static final Duration PERIOD = Duration.ofSeconds(60);
  private static final List<String> RING = List.of("y", "x", "z");

  private final FakeCliqueScheduler clock = new FakeCliqueScheduler();
  private final List<CliqueToken> sent = new ArrayList<>();
  private PassOutcome answer = PassOutcome.ACCEPTED;
  private CliqueRegistry x;

  @BeforeEach
  void setUp() {
    x =
        new CliqueRegistry(
            "x",
            clock,
            (member, token) -> {
              sent.add(token);
              return CompletableFuture.completedFuture(answer);
            },
            (clique, peer) -> CompletableFuture.completedFuture(null),
            clock::nowMillis,
            CliqueOptions.defaults());
    x.join(new CliqueConfig("lan", RING, PERIOD));
    clock.runPending();
  }

  private static CliqueToken token(long instance, long sequence, String originator) {
    return new CliqueToken("lan", instance, sequence, RING, 1, PERIOD, originator, 0);
  }

  private TokenVerdict hand(CliqueToken t) {
    CompletableFuture<TokenVerdict> v = x.receive(t);
    clock.runPending();
    return v.join();
  }

  @Test
  void receive_tokensOfOlderInstanceOrSequence_rejectedAsStale() {
    assertEquals(TokenVerdict.ACCEPTED, hand(token(3, 5, "y")));

    assertEquals(TokenVerdict.STALE, hand(token(2, 99, "y")));
    assertEquals(TokenVerdict.STALE, hand(token(3, 4, "y")));
    assertEquals(TokenVerdict.STALE, hand(token(3, 5, "y")));
  }

  @Test
  void receive_sameInstanceFromTwoRegenerators_laterOriginatorWins() {
    assertEquals(TokenVerdict.ACCEPTED, hand(token(4, 0, "z")));

    assertEquals(TokenVerdict.STALE, hand(token(4, 7, "y")));
    clock.advance(Duration.ofSeconds(1));
    assertEquals(TokenVerdict.ACCEPTED, hand(token(5, 0, "y")));
  }

  @Test
  void receive_stale_countedInStatus() {
    hand(token(3, 5, "y"));
    hand(token(1, 1, "y"));

    CompletableFuture<List<CliqueStatus>> status = x.status();
    clock.runPending();

    assertEquals(1, status.join().get(0).staleRejected());
    assertEquals(3, status.join().get(0).instance());
  }

  @Test
  void receive_accepted_passesToNextMemberWithSequencePlusDistance() {
    hand(token(3, 5, "y"));

    assertEquals(1, sent.size());
    assertEquals(2, sent.get(0).holder());
    assertEquals(6, sent.get(0).sequence());
    assertEquals(3, sent.get(0).instance());
  }

  @Test
  void pass_answeredStale_tokenDroppedNotPassedFurther() {
    answer = PassOutcome.STALE;

    hand(token(3, 5, "y"));

    assertEquals(1, sent.size());
    CompletableFuture<List<CliqueStatus>> status = x.status();
    clock.runPending();
    assertEquals("WAITING", status.join().get(0).state());
  }

  @Test
  void receive_tokenNotListingThisHost_notMember() {
    CliqueToken other = new CliqueToken("lan", 9, 0, List.of("y", "z"), 0, PERIOD, "y", 0);

    assertEquals(TokenVerdict.NOT_MEMBER, hand(other));
  }

  @Test
  void receive_tokenAddressedToAnotherMember_notMember() {
    CliqueToken forZ = new CliqueToken("lan", 9, 0, RING, 2, PERIOD, "y", 0);

    assertEquals(TokenVerdict.NOT_MEMBER, hand(forZ));
  }

  @Test
  void receive_unknownCliqueNotListingThisHost_notMember() {
    CliqueToken t = new CliqueToken("wan", 1, 0, List.of("p", "q"), 1, PERIOD, "p", 0);

    assertEquals(TokenVerdict.NOT_MEMBER, hand(t));
    assertEquals(List.of("lan"), x.cliques());
  }

  @Test
  void leave_thenToken_notMember() {
    x.leave("lan");

    assertEquals(TokenVerdict.NOT_MEMBER, hand(token(3, 5, "y")));
  }

  @Test
  void waiting_noTokenEver_regeneratesAfterInitialTimeoutAndItsStagger() {
    // x is one place after the first member: 150 s + 2 * (19 s + 5 s).
    clock.advance(Duration.ofSeconds(197));
    assertEquals(0, sent.size());

    clock.advance(Duration.ofSeconds(2));

    assertEquals(1, sent.size());
    assertEquals(1, sent.get(0).instance());
    assertEquals("x", sent.get(0).originator());
  }
}
