package org.netweather.runtime.auth;

import java.util.Locale;

/**
 * What a caller is to NetWeather. A daemon's role comes from its certificate (a URI subject
 * alternative name {@code urn:netweather:role:ROLE}); a caller without one is {@link #ANONYMOUS}.
 */
public enum Role {
  SENSOR,
  MEMORY,
  FORECASTER,
  PROXY,
  NAMESERVER,
  /** People and tools that change the site: cliques, deletions, others' registrations. */
  ADMIN,
  /** Read-only clients (dashboards, schedulers, `nws forecast`). */
  READER,
  /** No credential. */
  ANONYMOUS;

  /** The role's name as written in certificates and config: lower case. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a label.
   *
   * @throws IllegalArgumentException naming the roles there are
   */
  public static Role of(String label) {
    for (Role r : values()) {
      if (r.label().equals(label)) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "unknown role '"
            + label
            + "'; one of sensor, memory, forecaster, proxy, nameserver, admin, reader");
  }
}
