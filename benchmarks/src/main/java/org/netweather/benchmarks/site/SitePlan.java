package org.netweather.benchmarks.site;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who is in the simulated site: host names, their 16-host cliques (consecutive hosts; a single host
 * left over joins the clique before it), their cluster attribute, and every series they produce:
 * {@code cpu.availability} and {@code memory.free} per host, {@code tcp.latency}, {@code
 * tcp.bandwidth} and {@code tcp.connect} per ordered pair inside a clique.
 */
final class SitePlan {
  static final String[] HOST_RESOURCES = {"cpu.availability", "memory.free"};
  static final String[] PAIR_RESOURCES = {"tcp.latency", "tcp.bandwidth", "tcp.connect"};
  static final long HOST_PERIOD_MS = 10_000;
  static final long CLIQUE_PERIOD_MS = 60_000;

  private final String[] hosts;
  private final int[] cliqueOf;
  private final List<List<String>> cliques = new ArrayList<>();
  private final int clusterHosts;
  private final List<String> series = new ArrayList<>();
  private final Map<String, Integer> index = new HashMap<>();

  SitePlan(int hostCount, int cliqueSize, int clusterHosts) {
    this.hosts = new String[hostCount];
    this.cliqueOf = new int[hostCount];
    this.clusterHosts = clusterHosts;
    for (int i = 0; i < hostCount; i++) {
      hosts[i] = String.format("h%05d", i);
    }
    for (int start = 0; start < hostCount; start += cliqueSize) {
      int end = Math.min(hostCount, start + cliqueSize);
      if (end - start == 1 && !cliques.isEmpty()) {
        cliques.get(cliques.size() - 1).add(hosts[start]);
        cliqueOf[start] = cliques.size() - 1;
        continue;
      }
      List<String> members = new ArrayList<>();
      for (int i = start; i < end; i++) {
        members.add(hosts[i]);
        cliqueOf[i] = cliques.size();
      }
      cliques.add(members);
    }
    for (int h = 0; h < hostCount; h++) {
      for (String r : HOST_RESOURCES) {
        add(r + ":" + hosts[h]);
      }
      if (cliques.isEmpty()) {
        continue;
      }
      for (String peer : cliques.get(cliqueOf[h])) {
        if (!peer.equals(hosts[h])) {
          for (String r : PAIR_RESOURCES) {
            add(r + ":" + hosts[h] + "->" + peer);
          }
        }
      }
    }
  }

  private void add(String name) {
    index.put(name, series.size());
    series.add(name);
  }

  int hostCount() {
    return hosts.length;
  }

  String host(int i) {
    return hosts[i];
  }

  String cluster(int host) {
    return cluster(host, clusterHosts);
  }

  static String cluster(int host, int clusterHosts) {
    return String.format("c%03d", host / clusterHosts);
  }

  List<List<String>> cliques() {
    return cliques;
  }

  static String cliqueName(int i) {
    return String.format("q%05d", i);
  }

  /** Every series the site produces, in a fixed order; positions are series indexes. */
  List<String> series() {
    return series;
  }

  /** The index of a series, or -1 if the site does not produce it. */
  int indexOf(String series) {
    Integer i = index.get(series);
    return i == null ? -1 : i;
  }

  /** Measurements per second the site produces at real rate. */
  double measurementsPerSecond() {
    double pairs = series.size() - HOST_RESOURCES.length * hosts.length;
    return HOST_RESOURCES.length * hosts.length * 1000.0 / HOST_PERIOD_MS
        + pairs * 1000.0 / CLIQUE_PERIOD_MS;
  }
}
