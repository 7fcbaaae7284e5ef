package org.netweather.sensor.daemon;

/** The sensor's configuration file (YAML); every field has a default that works locally. */
public final class SensorProperties {
  /** This host's name in series names; empty means the machine's host name. */
  public String host = "";
  /** Address other daemons use to reach this sensor; empty means {@link #host}. */
  public String advertise = "";
  /** Address to bind the probe listener to; empty means all addresses. */
  public String bind = "";
  /** gRPC port of the control service (the original NWS sensor used 8060). */
  public int port = 8060;
  /** Probe listener port. */
  public int probePort = 8061;
  /** Prometheus metrics over HTTP at /metrics; 0 picks a free port, -1 serves none. */
  public int metricsPort = 8069;
  /** Nameserver address, host:port. */
  public String nameserver = "localhost:8090";
  /** Where the spool lives. */
  public String dataDir = "nws-data/sensor";
  /** Cluster attribute, used by proxies to find their hosts. */
  public String cluster = "";
  /**
   * Lease TTL in seconds; the sensor heartbeats every third of it. Long, because sensors are
   * most of a site's registrations: at 10 000 sensors a 180 s TTL means about 170 heartbeats/s
   * at the nameserver. A sensor that stops cleanly unregisters at once; one that dies stays
   * listed for up to this long.
   */
  public int ttlSeconds = 180;
  /** Period of cpu.availability, seconds (the original's default was 10). */
  public int cpuPeriodSeconds = 10;
  /** Period of memory.free, seconds. */
  public int memoryPeriodSeconds = 10;
  /**
   * The nameserver pushes this host's cliques; only if it cannot (too old, or out of watch
   * slots) are they polled, this often, in milliseconds.
   */
  public long cliquePollMs = 30_000;
  /** Spool bound in bytes. */
  public long spoolBytes = 64L << 20;
  /** Allow probes from any address (for tests and `nws probe-server`), not only sensors. */
  public boolean probeFromAnyone = false;
}
