package org.netweather.proxy;

import java.util.List;
import org.netweather.runtime.config.ConfigSchema;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.config.DaemonSettings;
import org.netweather.runtime.config.Setting;
import org.netweather.runtime.logging.LogSettings;
import org.netweather.runtime.tls.ConnectionSettings;
import org.netweather.runtime.tls.TlsFiles;

/**
 * The proxy's configuration: its settings (keys of the YAML file, flags of {@code nws proxy})
 * declared once below, and an immutable, checked snapshot of their values.
 */
public final class ProxyProperties {
  // The cache's own defaults are the one source of the staleness settings' defaults.
  private static final ClusterCache.Settings CACHE = ClusterCache.Settings.defaults();

  public static final Setting<Integer> PORT =
      DaemonSettings.port(8080, "gRPC port; 0 picks a free one.");
  public static final Setting<Integer> METRICS_PORT = DaemonSettings.metricsPort(8089);
  public static final Setting<String> NAMESERVER = DaemonSettings.nameserver();
  public static final Setting<String> CLUSTER =
      DaemonSettings.cluster("default", "The cluster this proxy serves.");
  public static final Setting<List<String>> HOSTS =
      Setting.list(
              "hosts",
              List.of(),
              "Hosts of the cluster besides the sensors registered with cluster=NAME.")
          .label("H1,H2,...");
  public static final Setting<String> HOST = DaemonSettings.host();
  public static final Setting<String> ADVERTISE = DaemonSettings.advertise();
  public static final Setting<Integer> TTL_SECONDS = DaemonSettings.ttlSeconds();
  public static final Setting<Long> DISCOVERY_MS =
      Setting.longInteger(
              "discoveryMs", 2_000, "How often to look for the cluster's hosts, in milliseconds.")
          .atLeast(1);
  public static final Setting<Double> STALE_FACTOR =
      Setting.decimal(
              "staleFactor",
              CACHE.staleFactor(),
              "A value is stale once its measurement is older than this many of its periods.")
          .rule("greater than 0", v -> v > 0);
  public static final Setting<Long> MIN_STALE_MS =
      Setting.longInteger(
              "minStaleMs", CACHE.minStaleMs(), "... but never before this many milliseconds.")
          .atLeast(0);
  public static final Setting<Long> DEFAULT_STALE_MS =
      Setting.longInteger(
              "defaultStaleMs",
              CACHE.defaultStaleMs(),
              "Staleness bound while a series' period is not yet known.")
          .atLeast(0);

  public static final Setting<String> TLS_CERT = DaemonSettings.tlsCert();
  public static final Setting<String> TLS_KEY = DaemonSettings.tlsKey();
  public static final Setting<String> TLS_CA = DaemonSettings.tlsCa();
  public static final Setting<Boolean> TLS_ANONYMOUS_READS = DaemonSettings.tlsAnonymousReads();

  public static final ConfigSchema SCHEMA =
      ConfigSchema.of(
              "proxy",
              PORT,
              METRICS_PORT,
              NAMESERVER,
              CLUSTER,
              HOSTS,
              HOST,
              ADVERTISE,
              TTL_SECONDS,
              DISCOVERY_MS,
              STALE_FACTOR,
              MIN_STALE_MS,
              DEFAULT_STALE_MS,
              TLS_CERT,
              TLS_KEY,
              TLS_CA,
              TLS_ANONYMOUS_READS)
          .plus(LogSettings.SETTINGS)
          .plus(ConnectionSettings.SETTINGS);

  public final int port;
  public final int metricsPort;
  public final String nameserver;
  public final String cluster;
  public final List<String> hosts;
  public final String host;
  public final String advertise;
  public final int ttlSeconds;
  public final long discoveryMs;
  public final double staleFactor;
  public final long minStaleMs;
  public final long defaultStaleMs;
  private final String tlsCert;
  private final String tlsKey;
  private final String tlsCa;
  private final boolean tlsAnonymousReads;
  private final ConfigValues values;

  /** The snapshot of {@code values}, which must be of {@link #SCHEMA}. */
  public ProxyProperties(ConfigValues values) {
    if (values.schema() != SCHEMA) {
      throw new IllegalArgumentException(values.schema() + " values are not the proxy's");
    }
    this.values = values;
    port = values.get(PORT);
    metricsPort = values.get(METRICS_PORT);
    nameserver = values.get(NAMESERVER);
    cluster = values.get(CLUSTER);
    hosts = values.get(HOSTS);
    host = values.get(HOST);
    advertise = values.get(ADVERTISE);
    ttlSeconds = values.get(TTL_SECONDS);
    discoveryMs = values.get(DISCOVERY_MS);
    staleFactor = values.get(STALE_FACTOR);
    minStaleMs = values.get(MIN_STALE_MS);
    defaultStaleMs = values.get(DEFAULT_STALE_MS);
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
  public static ProxyProperties defaults() {
    return new ProxyProperties(SCHEMA.defaults());
  }

  /** A copy with one setting changed (checked against its rules). */
  public <T> ProxyProperties with(Setting<T> setting, T value) {
    return new ProxyProperties(values.with(setting, value));
  }

  /** The values with where each came from. */
  public ConfigValues values() {
    return values;
  }
}
