package org.netweather.registry.zookeeper;

/**
 * Where each part of the shared state lives, under the site's chroot ({@code /netweather}):
 *
 * <pre>
 *   /v1/daemons/{name}          persistent  one daemon record (JSON)
 *   /v1/hosts/{cluster}         persistent  every host record of one cluster (JSON object by host)
 *   /v1/cliques/{name}          persistent  one clique (JSON)
 *   /v1/values/{key...}         persistent  one value, changed by versioned setData only
 *   /v1/members/{group}/{id}    EPHEMERAL   one member, owned by its session (JSON attributes)
 * </pre>
 *
 * Znode counts stay O(daemons + clusters + cliques + values): never one per host or per series.
 */
final class Znodes {
  static final String ROOT = "/v1";
  static final String DAEMONS = ROOT + "/daemons";
  static final String HOSTS = ROOT + "/hosts";
  static final String CLIQUES = ROOT + "/cliques";
  static final String VALUES = ROOT + "/values";
  static final String MEMBERS = ROOT + "/members";

  private Znodes() {}

  static String daemon(String name) {
    return DAEMONS + "/" + name;
  }

  static String cluster(String cluster) {
    return HOSTS + "/" + cluster;
  }

  static String clique(String name) {
    return CLIQUES + "/" + name;
  }

  static String value(String key) {
    return VALUES + "/" + key;
  }

  static String group(String group) {
    return MEMBERS + "/" + group;
  }

  static String member(String group, String id) {
    return group(group) + "/" + id;
  }
}
