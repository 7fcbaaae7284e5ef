package org.netweather.nameserver;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.netweather.api.v1.Clique;
import org.netweather.nameserver.JournalEntry.Registered;
import org.netweather.registry.CliqueRecord;
import org.netweather.registry.DaemonRecord;
import org.netweather.registry.HostRecord;

/**
 * How the nameserver's registrations, leases and cliques are written in the site's registry, and
 * read back: a sensor's registration is a host record of its cluster, any other a daemon record;
 * each carries its lease id, TTL and registration time in attributes under {@value #PREFIX} (never
 * shown to callers), so that another nameserver can adopt the lease. Who holds which leases is a
 * <em>live set</em> per scope (the daemons, or one cluster's hosts): one text value, a line per
 * nameserver with the names it holds, rewritten only when that set changes.
 */
final class SharedRecords {
  static final String PREFIX = "nws.";
  static final String LEASE = PREFIX + "lease";
  static final String TTL_MS = PREFIX + "ttl_ms";
  static final String REGISTERED_MS = PREFIX + "registered_ms";

  /** The nameserver that granted the lease, for a record no live set lists yet. */
  static final String BY = PREFIX + "by";

  static final String SENSOR_KIND = "sensor";
  static final String DEFAULT_CLUSTER = "default";

  /** The scope of the daemon records; a cluster's scope is {@code hosts/CLUSTER}. */
  static final String DAEMONS = "daemons";

  static final String HOSTS = "hosts/";
  private static final Pattern CLUSTER = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  private SharedRecords() {}

  /** A registration as read from the registry, with its lease and who granted it ("": unknown). */
  record Shared(String scope, Registered lease, String by) {
    String name() {
      return lease.registration().getName();
    }
  }

  /** The cluster a sensor's registration is kept under: its {@code cluster} attribute if usable. */
  static String cluster(org.netweather.api.v1.Registration r) {
    String c = r.getAttributesOrDefault("cluster", DEFAULT_CLUSTER);
    return CLUSTER.matcher(c).matches() && !c.matches("\\.{1,2}") ? c : DEFAULT_CLUSTER;
  }

  /** Where a registration's record and live set are: {@link #DAEMONS} or {@code hosts/CLUSTER}. */
  static String scope(org.netweather.api.v1.Registration r) {
    return SENSOR_KIND.equals(r.getKind()) ? HOSTS + cluster(r) : DAEMONS;
  }

  /** The registry key of a scope's live set. */
  static String liveKey(String scope) {
    return "live/" + scope;
  }

  private static Map<String, String> withLease(Registered e, String by) {
    Map<String, String> a = new HashMap<>(e.registration().getAttributesMap());
    a.keySet().removeIf(k -> k.startsWith(PREFIX));
    a.put(BY, by);
    a.put(LEASE, e.leaseId());
    a.put(TTL_MS, Long.toString(e.ttlMs()));
    a.put(REGISTERED_MS, Long.toString(e.registration().getRegisteredMs()));
    return a;
  }

  /** A sensor's registration as a host record, its lease granted by the nameserver {@code by}. */
  static HostRecord host(Registered e, String by) {
    var r = e.registration();
    return new HostRecord(cluster(r), r.getName(), r.getAddress(), withLease(e, by));
  }

  /** Any other registration as a daemon record, its lease granted by {@code by}. */
  static DaemonRecord daemon(Registered e, String by) {
    var r = e.registration();
    return new DaemonRecord(r.getName(), r.getKind(), r.getAddress(), withLease(e, by));
  }

  static Shared read(HostRecord h) {
    return new Shared(
        HOSTS + h.cluster(),
        read(h.host(), SENSOR_KIND, h.address(), h.attributes()),
        h.attributes().getOrDefault(BY, ""));
  }

  static Shared read(DaemonRecord d) {
    return new Shared(
        DAEMONS,
        read(d.name(), d.kind(), d.address(), d.attributes()),
        d.attributes().getOrDefault(BY, ""));
  }

  private static Registered read(
      String name, String kind, String address, Map<String, String> attributes) {
    Map<String, String> shown = new HashMap<>(attributes);
    shown.keySet().removeIf(k -> k.startsWith(PREFIX));
    long registered = number(attributes.get(REGISTERED_MS));
    long ttl = Math.max(1000, number(attributes.get(TTL_MS)));
    var reg =
        org.netweather.api.v1.Registration.newBuilder()
            .setName(name)
            .setKind(kind)
            .setAddress(address)
            .putAllAttributes(shown)
            .setRegisteredMs(registered)
            .setExpiresMs(registered + ttl)
            .build();
    return new Registered(attributes.getOrDefault(LEASE, ""), ttl, reg);
  }

  private static long number(String s) {
    try {
      return s == null ? 0 : Long.parseLong(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  static CliqueRecord clique(Clique c) {
    return new CliqueRecord(
        c.getName(),
        c.getMembersList(),
        c.getPeriodSeconds(),
        c.getSkillsList(),
        c.getOptionsMap());
  }

  static Clique clique(CliqueRecord c) {
    return Clique.newBuilder()
        .setName(c.name())
        .addAllMembers(c.members())
        .setPeriodSeconds(c.periodSeconds())
        .addAllSkills(c.skills())
        .putAllOptions(c.options())
        .build();
  }

  /** A live set's text: a line {@code NAMESERVER NAME NAME ...} per nameserver. */
  static Map<String, Set<String>> parseLive(byte[] data) {
    Map<String, Set<String>> out = new TreeMap<>();
    for (String line : new String(data, StandardCharsets.UTF_8).split("\n", -1)) {
      List<String> words = List.of(line.strip().split(" +", -1));
      if (!words.get(0).isEmpty()) {
        out.put(words.get(0), new TreeSet<>(words.subList(1, words.size())));
      }
    }
    return out;
  }

  static byte[] writeLive(Map<String, Set<String>> live) {
    StringBuilder b = new StringBuilder();
    live.forEach(
        (ns, names) -> {
          if (!names.isEmpty()) {
            b.append(ns);
            names.forEach(n -> b.append(' ').append(n));
            b.append('\n');
          }
        });
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }
}
