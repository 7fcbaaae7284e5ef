package org.netweather.sensor.clique;

/** A member's answer to a token handed to it; the gRPC service maps it to a status. */
public enum TokenVerdict {
  /** Taken: this host now holds the token (OK). */
  ACCEPTED,
  /** Older than a token already seen: the sender must drop it (ABORTED). */
  STALE,
  /** This host is not, or no longer, a member (FAILED_PRECONDITION): try the next member. */
  NOT_MEMBER
}
