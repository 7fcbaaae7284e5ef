package org.netweather.memoryhost;

/** The memory-host's configuration file (YAML); every field has a default that works locally. */
public final class MemoryHostProperties {
  /** gRPC port; 0 picks a free one. The original NWS memory used 8050. */
  public int port = 8050;
  /** Prometheus metrics over HTTP at /metrics; 0 picks a free port, -1 serves none. */
  public int metricsPort = 8059;
  /** Where series files, archives and the write-ahead log live. */
  public String dataDir = "nws-data/memory";
  /** Raw points kept per series (older ones remain in the consolidated archive). */
  public int rawPoints = 10_000;
  /** Raw points older than this many seconds are dropped; 0 keeps them whatever their age. */
  public long rawMaxAgeSeconds = 0;
  /** Series this memory-host may hold in all; appends that would create more are refused. */
  public int maxSeries = 2_000_000;
  /** Series one append may create. */
  public int maxNewSeriesPerCall = 1_000;
  /** Series one caller (by host address) may create per minute. */
  public int maxNewSeriesPerCallerPerMinute = 20_000;
  /** Seconds between bringing each series' consolidated archive up to date. */
  public long consolidationIntervalSeconds = 7200;
  /** Nameserver address, host:port. */
  public String nameserver = "localhost:8090";
  /** Registration name; empty means memory@HOST. */
  public String name = "";
  /** Host name to advertise; empty means this machine's name. */
  public String host = "";
  /** Lease TTL in seconds for the registration with the nameserver. */
  public int ttlSeconds = 10;
  /** Cluster attribute, if any. */
  public String cluster = "";

  /** The store's options, checked. */
  public StoreOptions storeOptions() {
    return new StoreOptions(java.nio.file.Path.of(dataDir), rawPoints,
        java.time.Duration.ofSeconds(rawMaxAgeSeconds), maxSeries, maxNewSeriesPerCall,
        maxNewSeriesPerCallerPerMinute, java.time.Duration.ofSeconds(
            consolidationIntervalSeconds));
  }
}
