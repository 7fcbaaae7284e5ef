package org.netweather.sensor.clique;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;

/**
 * A clique as created by {@code nws clique create NAME --members a,b,c --period 60s}.
 *
 * @param name clique name
 * @param members host names in ring order; at most 100 (the original's limit) and no repeats
 * @param period how often each member probes the others (the original's default is 120 s)
 */
public record CliqueConfig(String name, List<String> members, Duration period) {

  /** The original's member limit (start_activity man page). */
  public static final int MAX_MEMBERS = 100;

  public CliqueConfig {
    members = List.copyOf(members);
    if (members.isEmpty() || members.size() > MAX_MEMBERS) {
      throw new IllegalArgumentException("a clique has 1.." + MAX_MEMBERS + " members");
    }
    if (new HashSet<>(members).size() != members.size()) {
      throw new IllegalArgumentException("clique members repeat: " + members);
    }
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period must be positive");
    }
  }
}
