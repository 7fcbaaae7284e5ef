package org.netweather.registry;

import java.util.Map;
import java.util.Objects;

/**
 * A service daemon's registration as the site shares it: a memory-host, forecaster, proxy or
 * nameserver, keyed by its unique name. Sensors are {@link HostRecord}s instead, grouped per
 * cluster, so that the shared state grows with the clusters, not with the hosts. Leases are not
 * here: they stay soft state in the nameserver that granted them.
 */
public record DaemonRecord(
    String name, String kind, String address, Map<String, String> attributes) {
  public DaemonRecord {
    Names.check("daemon name", name);
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(address, "address");
    attributes = Map.copyOf(attributes);
  }
}
