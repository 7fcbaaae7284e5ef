package org.netweather.forecaster;

/** The forecaster's configuration file (YAML); every field has a default that works locally. */
public final class ForecasterProperties {
  /** gRPC port; 0 picks a free one. The original NWS forecaster used 8070. */
  public int port = 8070;
  /** Prometheus metrics over HTTP at /metrics; 0 picks a free port, -1 serves none. */
  public int metricsPort = 8079;
  /** Nameserver address, host:port. */
  public String nameserver = "localhost:8090";
  /** Registration name; empty means forecaster@HOST. */
  public String name = "";
  /** Host name to advertise; empty means this machine's name. */
  public String host = "";
  /** Lease TTL in seconds. */
  public int ttlSeconds = 10;
  /** How often to look for new memory-hosts, in milliseconds. */
  public long discoveryMs = 2_000;
  /** Measurements before members beyond the original NWS battery may be chosen. */
  public int burnIn = 100;
}
