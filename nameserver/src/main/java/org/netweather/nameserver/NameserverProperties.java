package org.netweather.nameserver;

/** The nameserver's configuration file (YAML); every field has a default that works locally. */
public final class NameserverProperties {
  /** gRPC port; 0 picks a free one. The original NWS nameserver used 8090. */
  public int port = 8090;
  /** Prometheus metrics over HTTP at /metrics; 0 picks a free port, -1 serves none. */
  public int metricsPort = 8099;
  /** Where the snapshot and journal live. */
  public String dataDir = "nws-data/nameserver";
  /** Host name written into the nameserver's own registration. */
  public String host = "";
  /** Clique watches (WatchCliques streams) open at once, in all: about one per sensor. */
  public int maxWatches = 20_000;
  /** Clique watches one client connection may hold open. */
  public int maxWatchesPerCaller = 256;
  /** Clique updates held for a watcher that does not read before its stream is ended. */
  public int watchQueue = 16;
}
