package org.netweather.nameserver;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Registration names by exact attribute value, so that a search naming values ({@code host=a},
 * {@code kind=memory}) looks at the registrations that have them instead of at all of them: at 10
 * 000 sensors each looking up its clique members, a scan per search would cost the nameserver a
 * hundred million comparisons at a cold start.
 *
 * <p>Not thread-safe: the nameserver holds its lock.
 */
final class AttributeIndex {
  private final Map<String, Set<String>> names = new HashMap<>();

  void add(String name, Map<String, String> attributes) {
    for (Map.Entry<String, String> e : attributes.entrySet()) {
      names.computeIfAbsent(key(e.getKey(), e.getValue()), k -> new HashSet<>()).add(name);
    }
  }

  void remove(String name, Map<String, String> attributes) {
    for (Map.Entry<String, String> e : attributes.entrySet()) {
      String key = key(e.getKey(), e.getValue());
      Set<String> s = names.get(key);
      if (s != null && s.remove(name) && s.isEmpty()) {
        names.remove(key);
      }
    }
  }

  /** Names registered with {@code attr} equal to {@code value}; a read-only view. */
  Set<String> names(String attr, String value) {
    Set<String> s = names.get(key(attr, value));
    return s == null ? Set.of() : Collections.unmodifiableSet(s);
  }

  private static String key(String attr, String value) {
    return attr + '\u0000' + value;
  }
}
