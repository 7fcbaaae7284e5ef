package org.netweather.forecaster;

import java.util.Optional;
import org.netweather.forecaster.battery.Battery;
import org.netweather.registry.RegistryLocation;
import org.netweather.registry.zookeeper.RegistryTls;
import org.netweather.runtime.config.ConfigSchema;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.config.DaemonSettings;
import org.netweather.runtime.config.Setting;
import org.netweather.runtime.logging.LogSettings;
import org.netweather.runtime.tls.ConnectionSettings;
import org.netweather.runtime.tls.TlsFiles;

/**
 * The forecaster's configuration: its settings (keys of the YAML file, flags of {@code nws
 * forecaster}) declared once below, and an immutable, checked snapshot of their values.
 */
public final class ForecasterProperties {
  public static final Setting<Integer> PORT =
      DaemonSettings.port(
          8070, "gRPC port; 0 picks a free one. The original NWS forecaster used 8070.");
  public static final Setting<Integer> METRICS_PORT = DaemonSettings.metricsPort(8079);
  public static final Setting<String> NAMESERVER = DaemonSettings.nameserver();
  public static final Setting<String> NAME = DaemonSettings.name("forecaster");
  public static final Setting<String> HOST = DaemonSettings.host();
  public static final Setting<String> ADVERTISE = DaemonSettings.advertise();
  public static final Setting<Integer> TTL_SECONDS = DaemonSettings.ttlSeconds();
  public static final Setting<Long> DISCOVERY_MS =
      Setting.longInteger(
              "discoveryMs", 2_000, "How often to look for new memory-hosts, in milliseconds.")
          .atLeast(1);
  public static final Setting<Integer> BURN_IN =
      Setting.integer(
              "burnIn",
              100,
              "Measurements before members beyond the original NWS battery may be chosen.")
          .atLeast(0);
  public static final Setting<Double> COVERAGE =
      Setting.decimal(
              "coverage",
              Battery.DEFAULT_COVERAGE,
              "Coverage of the intervals served when a request does not ask for one: the share"
                  + " of measurements they are meant to hold, 0.50 to 0.99.")
          .check(
              "a fraction from 0.50 to 0.99",
              v -> v >= 0.5 && v <= 0.99 ? null : "must be from 0.50 to 0.99, not " + v);
  public static final Setting<Integer> MAX_WATCHES =
      DaemonSettings.maxWatches(1024, "Forecast watch (WatchForecasts)");
  public static final Setting<Integer> MAX_WATCHES_PER_CALLER =
      DaemonSettings.maxWatchesPerCaller(64, "Forecast watch (WatchForecasts)");

  public static final Setting<String> METRICS_SERIES =
      Setting.text(
              "metricsSeries",
              "*",
              "Series whose forecast, error and age are exported as Prometheus metrics (a pattern"
                  + " with '*', e.g. 'cpu.availability:*'); see metricsSeriesMax.")
          .check(
              "a series pattern",
              v -> {
                try {
                  org.netweather.model.SeriesPattern.parse(v);
                  return null;
                } catch (IllegalArgumentException e) {
                  return e.getMessage();
                }
              });
  public static final Setting<Integer> METRICS_SERIES_MAX =
      Setting.integer(
              "metricsSeriesMax",
              10_000,
              "Most series exported as metrics (the first by name); 0 exports none. Each costs"
                  + " three time series in Prometheus.")
          .between(0, 1_000_000);

  public static final Setting<String> REGISTRY =
      Setting.text(
              "registry",
              RegistryLocation.LOCAL,
              "Where the site's shared state lives: local (this forecaster serves every shard)"
                  + " or zookeeper://HOST:PORT,.../PATH (an ensemble through which the forecasters"
                  + " share the shards; see docs/sharding.md).")
          .label("URL")
          .check("local or zookeeper://HOST:PORT,.../PATH", RegistryLocation::problem);

  public static final Setting<String> TLS_CERT = DaemonSettings.tlsCert();
  public static final Setting<String> TLS_KEY = DaemonSettings.tlsKey();
  public static final Setting<String> TLS_CA = DaemonSettings.tlsCa();
  public static final Setting<Boolean> TLS_ANONYMOUS_READS = DaemonSettings.tlsAnonymousReads();

  public static final ConfigSchema SCHEMA =
      ConfigSchema.of(
              "forecaster",
              PORT,
              METRICS_PORT,
              NAMESERVER,
              NAME,
              HOST,
              ADVERTISE,
              TTL_SECONDS,
              DISCOVERY_MS,
              BURN_IN,
              COVERAGE,
              MAX_WATCHES,
              MAX_WATCHES_PER_CALLER,
              METRICS_SERIES,
              METRICS_SERIES_MAX,
              REGISTRY,
              TLS_CERT,
              TLS_KEY,
              TLS_CA,
              TLS_ANONYMOUS_READS)
          .plus(LogSettings.SETTINGS)
          .plus(ConnectionSettings.SETTINGS);

  public final int port;
  public final int metricsPort;
  public final String nameserver;
  public final String name;
  public final String host;
  public final String advertise;
  public final int ttlSeconds;
  public final long discoveryMs;
  public final int burnIn;
  public final double coverage;
  public final int maxWatches;
  public final int maxWatchesPerCaller;
  private final String tlsCert;
  private final String tlsKey;
  private final String tlsCa;
  public final String metricsSeries;
  public final int metricsSeriesMax;
  public final RegistryLocation registry;
  private final boolean tlsAnonymousReads;
  private final ConfigValues values;

  /** The snapshot of {@code values}, which must be of {@link #SCHEMA}. */
  public ForecasterProperties(ConfigValues values) {
    if (values.schema() != SCHEMA) {
      throw new IllegalArgumentException(values.schema() + " values are not the forecaster's");
    }
    this.values = values;
    port = values.get(PORT);
    metricsPort = values.get(METRICS_PORT);
    nameserver = values.get(NAMESERVER);
    name = values.get(NAME);
    host = values.get(HOST);
    advertise = values.get(ADVERTISE);
    ttlSeconds = values.get(TTL_SECONDS);
    discoveryMs = values.get(DISCOVERY_MS);
    burnIn = values.get(BURN_IN);
    coverage = values.get(COVERAGE);
    maxWatches = values.get(MAX_WATCHES);
    maxWatchesPerCaller = values.get(MAX_WATCHES_PER_CALLER);
    tlsCert = values.get(TLS_CERT);
    tlsKey = values.get(TLS_KEY);
    tlsCa = values.get(TLS_CA);
    metricsSeries = values.get(METRICS_SERIES);
    metricsSeriesMax = values.get(METRICS_SERIES_MAX);
    registry = RegistryLocation.parse(values.get(REGISTRY));
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
  public static ForecasterProperties defaults() {
    return new ForecasterProperties(SCHEMA.defaults());
  }

  /** A copy with one setting changed (checked against its rules). */
  public <T> ForecasterProperties with(Setting<T> setting, T value) {
    return new ForecasterProperties(values.with(setting, value));
  }

  /** The values with where each came from. */
  public ConfigValues values() {
    return values;
  }

  /**
   * The TLS files for {@code zookeeper+tls://} registries: the daemon's own tlsCert, tlsKey and
   * tlsCa (empty when none is set).
   *
   * @throws IllegalArgumentException naming a key that is missing or whose file cannot be read
   */
  public Optional<RegistryTls> registryTls() {
    return RegistryTls.of(tlsCert, tlsKey, tlsCa);
  }
}
