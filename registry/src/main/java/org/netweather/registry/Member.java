package org.netweather.registry;

import java.util.Map;

/**
 * A live member of a group (the forecasters, the nameservers, ...), present while the session that
 * joined it lives. {@code session} tells one incarnation from the next: it changes when the member
 * rejoins under a new session.
 */
public record Member(String group, String id, long session, Map<String, String> data) {
  public Member {
    data = Map.copyOf(data);
  }
}
