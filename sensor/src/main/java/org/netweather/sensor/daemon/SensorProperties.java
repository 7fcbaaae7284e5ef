package org.netweather.sensor.daemon;

import org.netweather.runtime.config.ConfigSchema;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.config.DaemonSettings;
import org.netweather.runtime.config.Setting;
import org.netweather.runtime.logging.LogSettings;
import org.netweather.runtime.tls.ConnectionSettings;
import org.netweather.runtime.tls.TlsFiles;
import org.netweather.sensor.spool.SpoolOptions;

/**
 * The sensor's configuration: its settings (keys of the YAML file, flags of {@code nws sensor})
 * declared once below, and an immutable, checked snapshot of their values.
 */
public final class SensorProperties {
  public static final Setting<String> HOST =
      Setting.text(
          "host", "", "This host's name in series names; empty means the machine's host name.");
  public static final Setting<String> ADVERTISE = DaemonSettings.advertise();
  public static final Setting<String> BIND =
      Setting.text(
              "bind",
              "",
              "Address to bind the control service and probe listener to; empty means all addresses.")
          .label("ADDR");
  public static final Setting<Integer> PORT =
      DaemonSettings.port(
          8060, "gRPC port of the control service (the original NWS sensor used 8060).");
  public static final Setting<Integer> PROBE_PORT =
      Setting.integer("probePort", 8061, "Probe listener port; 0 picks a free one.")
          .between(0, 65535)
          .label("PORT");
  public static final Setting<Integer> METRICS_PORT = DaemonSettings.metricsPort(8069);
  public static final Setting<String> NAMESERVER = DaemonSettings.nameserver();
  public static final Setting<String> DATA_DIR =
      Setting.text("dataDir", "nws-data/sensor", "Where the spool lives.").label("DIR");
  public static final Setting<String> CLUSTER =
      DaemonSettings.optionalCluster(
          "Cluster this host belongs to, used by proxies to find their hosts; empty means none.");
  // Long: heartbeats at a third of it are what a site's nameserver pays for (10 000 sensors at
  // 180 s cost it under a tenth of a core); a dead sensor stays listed up to this long.
  public static final Setting<Integer> TTL_SECONDS = DaemonSettings.ttlSeconds(180);
  public static final Setting<Integer> CPU_PERIOD_SECONDS =
      Setting.integer(
              "cpuPeriodSeconds",
              10,
              "Period of cpu.availability, seconds (the original's default was 10).")
          .atLeast(1);
  public static final Setting<Integer> MEMORY_PERIOD_SECONDS =
      Setting.integer("memoryPeriodSeconds", 10, "Period of memory.free, seconds.").atLeast(1);
  public static final Setting<Long> CLIQUE_POLL_MS =
      Setting.longInteger(
              "cliquePollMs",
              30_000,
              "Cliques are pushed by the nameserver's WatchCliques stream; only when it cannot stream"
                  + " are they polled, this often, in milliseconds.")
          .atLeast(1);
  // Each delivery is one call per memory-host; at a few seconds a 10 000-host site makes a few
  // thousand calls a second instead of one per measurement.
  public static final Setting<Long> DELIVERY_INTERVAL_MS =
      Setting.longInteger(
              "deliveryIntervalMs",
              5_000,
              "Measurements are delivered to memory-hosts in batches this often, in milliseconds"
                  + " (sooner when a full batch of 1000 is waiting); lower means fresher forecasts,"
                  + " higher means fewer calls.")
          .between(10, 60_000);
  public static final Setting<Integer> AD_HOC_PROBES_PER_MINUTE =
      Setting.integer(
              "adHocProbesPerMinute",
              6,
              "Network experiments callers may ask for outside cliques (SensorControl.Probe), per"
                  + " minute and one at a time; 0 refuses them.")
          .between(0, 600);
  public static final Setting<Integer> MIN_NETWORK_ACTIVITY_SECONDS =
      Setting.integer(
              "minNetworkActivitySeconds",
              60,
              "Shortest period a network activity (StartActivity of tcp.bandwidth, tcp.latency,"
                  + " ...) may have, seconds; host activities may run every second.")
          .between(1, 86_400);
  public static final Setting<Long> SPOOL_BYTES =
      Setting.longInteger(
              "spoolBytes",
              SpoolOptions.defaults().maxBytes(),
              "Disk the spool of undelivered measurements may use, in bytes.")
          .atLeast(8 * 1024); // the spool is eight segments of at least 1 KiB
  public static final Setting<Boolean> PROBE_FROM_ANYONE =
      Setting.bool(
          "probeFromAnyone",
          false,
          "Allow probes from any address (for tests and `nws probe-server`), not only sensors.");

  public static final Setting<String> PROBE_KEY_FILE =
      Setting.text(
          "probeKeyFile",
          "",
          "A file holding the site's probe key (nws certs probe-key): probe connections are then"
              + " opened with a hello sealed with it, and only such hellos are served. Empty: no"
              + " key, any allowed address may probe.");

  public static final Setting<String> TLS_CERT = DaemonSettings.tlsCert();
  public static final Setting<String> TLS_KEY = DaemonSettings.tlsKey();
  public static final Setting<String> TLS_CA = DaemonSettings.tlsCa();
  public static final Setting<Boolean> TLS_ANONYMOUS_READS = DaemonSettings.tlsAnonymousReads();

  public static final ConfigSchema SCHEMA =
      ConfigSchema.of(
              "sensor",
              HOST,
              ADVERTISE,
              BIND,
              PORT,
              PROBE_PORT,
              METRICS_PORT,
              NAMESERVER,
              DATA_DIR,
              CLUSTER,
              TTL_SECONDS,
              CPU_PERIOD_SECONDS,
              MEMORY_PERIOD_SECONDS,
              CLIQUE_POLL_MS,
              DELIVERY_INTERVAL_MS,
              AD_HOC_PROBES_PER_MINUTE,
              MIN_NETWORK_ACTIVITY_SECONDS,
              SPOOL_BYTES,
              PROBE_FROM_ANYONE,
              PROBE_KEY_FILE,
              TLS_CERT,
              TLS_KEY,
              TLS_CA,
              TLS_ANONYMOUS_READS)
          .plus(LogSettings.SETTINGS)
          .plus(ConnectionSettings.SETTINGS);

  public final String host;
  public final String advertise;
  public final String bind;
  public final int port;
  public final int probePort;
  public final int metricsPort;
  public final String nameserver;
  public final String dataDir;
  public final String cluster;
  public final String probeKeyFile;
  public final int ttlSeconds;
  public final int cpuPeriodSeconds;
  public final int memoryPeriodSeconds;
  public final long cliquePollMs;
  public final long deliveryIntervalMs;
  public final int adHocProbesPerMinute;
  public final int minNetworkActivitySeconds;
  public final long spoolBytes;
  public final boolean probeFromAnyone;
  private final String tlsCert;
  private final String tlsKey;
  private final String tlsCa;
  private final boolean tlsAnonymousReads;
  private final ConfigValues values;

  /** The snapshot of {@code values}, which must be of {@link #SCHEMA}. */
  public SensorProperties(ConfigValues values) {
    if (values.schema() != SCHEMA) {
      throw new IllegalArgumentException(values.schema() + " values are not the sensor's");
    }
    this.values = values;
    host = values.get(HOST);
    advertise = values.get(ADVERTISE);
    bind = values.get(BIND);
    port = values.get(PORT);
    probePort = values.get(PROBE_PORT);
    metricsPort = values.get(METRICS_PORT);
    nameserver = values.get(NAMESERVER);
    dataDir = values.get(DATA_DIR);
    cluster = values.get(CLUSTER);
    ttlSeconds = values.get(TTL_SECONDS);
    cpuPeriodSeconds = values.get(CPU_PERIOD_SECONDS);
    memoryPeriodSeconds = values.get(MEMORY_PERIOD_SECONDS);
    cliquePollMs = values.get(CLIQUE_POLL_MS);
    deliveryIntervalMs = values.get(DELIVERY_INTERVAL_MS);
    adHocProbesPerMinute = values.get(AD_HOC_PROBES_PER_MINUTE);
    minNetworkActivitySeconds = values.get(MIN_NETWORK_ACTIVITY_SECONDS);
    spoolBytes = values.get(SPOOL_BYTES);
    probeFromAnyone = values.get(PROBE_FROM_ANYONE);
    probeKeyFile = values.get(PROBE_KEY_FILE);
    tlsCert = values.get(TLS_CERT);
    tlsKey = values.get(TLS_KEY);
    tlsCa = values.get(TLS_CA);
    tlsAnonymousReads = values.get(TLS_ANONYMOUS_READS);
  }

  /**
   * The TLS files, or null for plaintext.
   *
   * @throws IllegalArgumentException naming a key that is missing or whose file cannot be read
   */
  public TlsFiles tls() {
    return TlsFiles.of(tlsCert, tlsKey, tlsCa, TlsFiles.REFRESH, tlsAnonymousReads);
  }

  /** Every setting at its default. */
  public static SensorProperties defaults() {
    return new SensorProperties(SCHEMA.defaults());
  }

  /** A copy with one setting changed (checked against its rules). */
  public <T> SensorProperties with(Setting<T> setting, T value) {
    return new SensorProperties(values.with(setting, value));
  }

  /** The values with where each came from. */
  public ConfigValues values() {
    return values;
  }
}
