package org.netweather.registry;

import java.util.Map;
import java.util.Objects;

/**
 * A host of the site (where a sensor runs), in its cluster. Every host of a cluster is kept in one
 * place (one znode on ZooKeeper), so that reading a site costs one read per cluster.
 */
public record HostRecord(
    String cluster, String host, String address, Map<String, String> attributes) {
  public HostRecord {
    Names.check("cluster", cluster);
    Names.check("host", host);
    Objects.requireNonNull(address, "address");
    attributes = Map.copyOf(attributes);
  }
}
