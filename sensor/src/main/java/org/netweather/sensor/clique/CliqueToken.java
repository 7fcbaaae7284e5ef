package org.netweather.sensor.clique;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The token of a clique, mirroring {@code netweather.v1.CliqueToken}.
 *
 * <p>Tokens are ordered by (instance, originator, sequence): a later instance always wins; two
 * members that regenerated the same instance at once are told apart by originator name, so one of
 * the two tokens dies the first time they meet; within one token's life the sequence grows.
 *
 * @param clique clique name
 * @param instance incremented by each regeneration; the first token has instance 1
 * @param sequence incremented by the ring distance of each hand-over within an instance, so that
 *     two copies of a token that reach the same member by different routes carry the same number
 *     and the second is refused
 * @param members member host names, in ring order
 * @param holder index in {@code members} of the host the token is addressed to
 * @param period the clique's period: the leader starts a cycle at most once per period
 * @param originator the member that generated this instance; it paces the cycles
 * @param sentMs Unix epoch ms when the token was last passed; informational
 */
public record CliqueToken(
    String clique,
    long instance,
    long sequence,
    List<String> members,
    int holder,
    Duration period,
    String originator,
    long sentMs) {

  public CliqueToken {
    Objects.requireNonNull(clique, "clique");
    Objects.requireNonNull(originator, "originator");
    members = List.copyOf(members);
    if (members.isEmpty()) {
      throw new IllegalArgumentException("a clique needs members");
    }
    if (holder < 0 || holder >= members.size()) {
      throw new IllegalArgumentException("holder " + holder + " outside " + members);
    }
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period must be positive");
    }
  }

  /** The host the token is addressed to. */
  public String holderName() {
    return members.get(holder);
  }

  /** Whether this token is strictly newer than {@code other} (null counts as oldest). */
  public boolean isNewerThan(CliqueToken other) {
    if (other == null) {
      return true;
    }
    if (instance != other.instance) {
      return instance > other.instance;
    }
    int byOriginator = originator.compareTo(other.originator);
    if (byOriginator != 0) {
      return byOriginator > 0;
    }
    return sequence > other.sequence;
  }

  /** This token handed {@code distance} places round the ring to member {@code to}. */
  CliqueToken passedTo(List<String> ring, int to, int distance, long nowMs) {
    return new CliqueToken(
        clique, instance, sequence + distance, ring, to, period, originator, nowMs);
  }
}
