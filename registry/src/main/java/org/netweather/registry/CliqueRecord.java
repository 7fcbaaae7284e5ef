package org.netweather.registry;

import java.util.List;
import java.util.Map;

/**
 * A clique definition: its members in token order, how often each probes all the others, the skills
 * it runs and their options (as the nameserver's {@code Clique} message).
 */
public record CliqueRecord(
    String name,
    List<String> members,
    long periodSeconds,
    List<String> skills,
    Map<String, String> options) {
  public CliqueRecord {
    Names.check("clique name", name);
    members = List.copyOf(members);
    skills = List.copyOf(skills);
    options = Map.copyOf(options);
  }
}
