package org.netweather.nameserver;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.netweather.runtime.Statuses;

/**
 * How many live registrations each certified identity holds, so that one certificate cannot fill
 * the directory (and every listing) with names. Names whose lease has ended stop counting the next
 * time their holder registers. Memory: at most the limit's worth of names per identity.
 */
final class RegistrationQuota {
  private final int max;
  private final Map<String, Set<String>> byHolder = new HashMap<>();

  RegistrationQuota(int max) {
    this.max = max;
  }

  /**
   * Admits {@code name} for {@code holder}, or throws RESOURCE_EXHAUSTED naming the limit.
   *
   * @param live whether a name is still registered
   */
  synchronized void admit(String holder, String name, Predicate<String> live) {
    Set<String> names = byHolder.computeIfAbsent(holder, h -> new HashSet<>());
    if (names.contains(name)) {
      return;
    }
    if (names.size() >= max) {
      names.removeIf(live.negate());
    }
    if (names.size() >= max) {
      throw Statuses.resourceExhausted(
          holder
              + " already holds "
              + names.size()
              + " live registrations (maxRegistrationsPerCaller = "
              + max
              + "); unregister one first");
    }
    names.add(name);
  }
}
