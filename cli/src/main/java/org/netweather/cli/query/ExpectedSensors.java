package org.netweather.cli.query;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.Registration;

/**
 * Hosts the site expects a sensor on, that have none registered: members of a clique (whose token
 * would stall at them) and hosts a proxy was told belong to its cluster (its {@code hosts}
 * attribute). A sensor registers as {@code sensor@HOST} with the attribute {@code host=HOST}; a
 * host is covered when a live sensor carries it.
 */
final class ExpectedSensors {
  /** A sensor expected and not registered, under the name it would register with. */
  record Expected(String name, String reason) {}

  private ExpectedSensors() {}

  /**
   * @param live the live registrations
   * @param listed names already listed (live or missing): not reported twice
   * @param cliques every clique definition
   */
  static List<Expected> without(
      List<Registration> live, Collection<String> listed, List<Clique> cliques) {
    Set<String> covered = new HashSet<>();
    for (Registration r : live) {
      if (r.getKind().equals("sensor")) {
        covered.add(r.getAttributesOrDefault("host", ""));
      }
    }
    Map<String, List<String>> why = new LinkedHashMap<>();
    for (Clique c : cliques) {
      for (String host : c.getMembersList()) {
        why.computeIfAbsent(host, h -> new ArrayList<>()).add("clique " + c.getName());
      }
    }
    for (Registration r : live) {
      String hosts = r.getAttributesOrDefault("hosts", "");
      if (r.getKind().equals("proxy") && !hosts.isEmpty()) {
        for (String host : hosts.split(",", -1)) {
          if (!host.isBlank()) {
            why.computeIfAbsent(host.strip(), h -> new ArrayList<>())
                .add("cluster " + r.getAttributesOrDefault("cluster", "?"));
          }
        }
      }
    }
    Set<String> listedNames = new HashSet<>(listed);
    List<Expected> out = new ArrayList<>();
    why.forEach(
        (host, where) -> {
          String name = "sensor@" + host;
          if (!covered.contains(host) && !listedNames.contains(name)) {
            out.add(
                new Expected(
                    name,
                    "member of "
                        + String.join(", ", where)
                        + ", but host "
                        + host
                        + " has not registered a sensor"));
          }
        });
    return out;
  }
}
