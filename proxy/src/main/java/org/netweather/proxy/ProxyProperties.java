package org.netweather.proxy;

import java.util.ArrayList;
import java.util.List;

/** The proxy's configuration file (YAML); every field has a default that works locally. */
public final class ProxyProperties {
  /** gRPC port; 0 picks a free one. */
  public int port = 8080;
  /** Prometheus metrics over HTTP at /metrics; 0 picks a free port, -1 serves none. */
  public int metricsPort = 8089;
  /** Nameserver address, host:port. */
  public String nameserver = "localhost:8090";
  /** The cluster this proxy serves. */
  public String cluster = "default";
  /** Hosts of the cluster besides the sensors registered with cluster=NAME. */
  public List<String> hosts = new ArrayList<>();
  /** Host name to advertise; empty means this machine's name. */
  public String host = "";
  /** Lease TTL in seconds. */
  public int ttlSeconds = 10;
  /** How often to look for the cluster's hosts, in milliseconds. */
  public long discoveryMs = 2_000;
  /** A value is stale once its measurement is older than this many of its periods. */
  public double staleFactor = 3.0;
  /** ... but never before this many milliseconds. */
  public long minStaleMs = 10_000;
  /** Staleness bound while a series' period is not yet known. */
  public long defaultStaleMs = 300_000;
}
