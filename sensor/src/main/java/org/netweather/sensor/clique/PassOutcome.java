package org.netweather.sensor.clique;

/** What became of an attempt to hand the token to a member. */
public enum PassOutcome {
  /** The member took it. */
  ACCEPTED,
  /** The member has a newer token; drop this one. */
  STALE,
  /** The member refused it as a non-member; skip it. */
  NOT_MEMBER,
  /** No answer (down, unreachable, timed out); skip it. */
  UNREACHABLE;

  /** The outcome a sender reports for a verdict received from the member. */
  public static PassOutcome of(TokenVerdict verdict) {
    switch (verdict) {
      case ACCEPTED:
        return ACCEPTED;
      case STALE:
        return STALE;
      case NOT_MEMBER:
        return NOT_MEMBER;
      default:
        throw new AssertionError(verdict);
    }
  }
}
