package org.netweather.nameserver;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.Registration;
import org.netweather.model.SeriesName;

/** What makes a registration or clique acceptable, with messages naming the bad field. */
final class RegistrationRules {
  static final int MAX_NAME = 200;
  static final int MAX_ATTRIBUTES = 64;
  static final int MAX_VALUE = 1024;
  static final int MAX_KEY = 64;
  // A thousand registrations of this size still fit one listing page under the message limit.
  static final int MAX_BYTES = 8192;

  private RegistrationRules() {}

  static void check(Registration r) {
    checkName(r.getName());
    String kind = r.getKind();
    if (kind.isEmpty() || !kind.matches("[a-z0-9-]+")) {
      throw new IllegalArgumentException(
          "registration.kind '" + kind + "' must be a word of lower-case letters, digits and '-'");
    }
    String address = r.getAddress();
    int colon = address.lastIndexOf(':');
    if (colon <= 0
        || !address.substring(colon + 1).matches("[0-9]{1,5}")
        || Integer.parseInt(address.substring(colon + 1)) > 65535) {
      throw new IllegalArgumentException("registration.address '" + address + "' is not host:port");
    }
    if (r.getSerializedSize() > MAX_BYTES) {
      throw new IllegalArgumentException(
          "registration is " + r.getSerializedSize() + " bytes; at most " + MAX_BYTES);
    }
    if (r.getAttributesCount() > MAX_ATTRIBUTES) {
      throw new IllegalArgumentException(
          "registration.attributes has more than " + MAX_ATTRIBUTES + " entries");
    }
    for (Map.Entry<String, String> e : r.getAttributesMap().entrySet()) {
      if (e.getKey().length() > MAX_KEY || !e.getKey().matches("[A-Za-z0-9._-]+")) {
        throw new IllegalArgumentException(
            "registration.attributes key '"
                + e.getKey()
                + "' must be at most "
                + MAX_KEY
                + " letters, digits, '.', '_' and '-'");
      }
      if (e.getValue().length() > MAX_VALUE) {
        throw new IllegalArgumentException(
            "registration.attributes['"
                + e.getKey()
                + "'] is longer than "
                + MAX_VALUE
                + " characters");
      }
    }
  }

  static void checkName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("name is empty");
    }
    if (name.length() > MAX_NAME || !name.matches("[A-Za-z0-9._@:-]+")) {
      throw new IllegalArgumentException(
          "name '"
              + name
              + "' must be at most "
              + MAX_NAME
              + " letters, digits, '.', '_', '-', '@' or ':'");
    }
  }

  static void checkClique(Clique c) {
    checkName(c.getName());
    if (c.getMembersCount() < 2) {
      throw new IllegalArgumentException("clique.members needs at least two hosts");
    }
    Set<String> seen = new HashSet<>();
    for (String m : c.getMembersList()) {
      String p = SeriesName.nameProblem("clique.members host", m);
      if (p != null) {
        throw new IllegalArgumentException(p);
      }
      if (!seen.add(m)) {
        throw new IllegalArgumentException("clique.members lists '" + m + "' twice");
      }
    }
    if (c.getPeriodSeconds() < 1 || c.getPeriodSeconds() > 86_400) {
      throw new IllegalArgumentException(
          "clique.period_seconds " + c.getPeriodSeconds() + " is outside [1, 86400]");
    }
  }

  /** The attributes a filter sees: the free ones plus name, kind and address. */
  static Map<String, String> searchable(Registration r) {
    Map<String, String> m = new HashMap<>(r.getAttributesMap());
    m.put("name", r.getName());
    m.put("kind", r.getKind());
    m.put("address", r.getAddress());
    return m;
  }
}
