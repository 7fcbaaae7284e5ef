package org.netweather.model.shard;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Rendezvous (highest random weight) hashing of a shard onto members: every member gets a score
 * from (shard, member id) and the highest score owns the shard. Every process computes the same
 * owner from the same member list, without a coordinator; when a member leaves only its shards
 * move, each to its own next-ranked member, so they spread over all survivors instead of falling on
 * one neighbour (Thaler and Ravishankar, "Using name-based mappings to increase hit rates",
 * IEEE/ACM ToN 1998). See {@code docs/sharding.md}.
 */
public final class Rendezvous {
  private Rendezvous() {}

  /** The member owning {@code shard}, or empty when there are no members. */
  public static Optional<String> owner(int shard, Collection<String> members) {
    String best = null;
    long bestScore = 0;
    for (String member : members) {
      long score = score(shard, member);
      if (best == null
          || Long.compareUnsigned(score, bestScore) > 0
          || (score == bestScore && member.compareTo(best) < 0)) {
        best = member;
        bestScore = score;
      }
    }
    return Optional.ofNullable(best);
  }

  /** The members in order of preference for {@code shard}, the owner first. */
  public static List<String> ranked(int shard, Collection<String> members) {
    List<String> out = new ArrayList<>(members);
    out.sort(
        (a, b) -> {
          int c = Long.compareUnsigned(score(shard, b), score(shard, a));
          return c != 0 ? c : a.compareTo(b);
        });
    return out;
  }

  /** The score of a member for a shard: a 64-bit mix of the member's hash and the shard. */
  static long score(int shard, String member) {
    int h = Murmur3.hash32(member.getBytes(StandardCharsets.UTF_8), 0x9747b28c);
    long x = ((long) h << 32) ^ (shard * 0x9E3779B97F4A7C15L);
    // SplitMix64's finaliser: every input bit reaches every output bit.
    x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
    x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
    return x ^ (x >>> 31);
  }
}
