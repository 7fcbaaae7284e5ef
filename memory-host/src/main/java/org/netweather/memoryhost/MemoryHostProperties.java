package org.netweather.memoryhost;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
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
 * The memory-host's configuration: its settings (keys of the YAML file, flags of {@code nws
 * memory}) declared once below, and an immutable, checked snapshot of their values.
 */
public final class MemoryHostProperties {
  // The store's own defaults are the one source of the storage settings' defaults.
  private static final StoreOptions STORE = StoreOptions.defaults(Path.of("nws-data/memory"));

  public static final Setting<Integer> PORT =
      DaemonSettings.port(
          8050, "gRPC port; 0 picks a free one. The original NWS memory used 8050.");
  public static final Setting<Integer> METRICS_PORT = DaemonSettings.metricsPort(8059);
  public static final Setting<String> DATA_DIR =
      Setting.text(
              "dataDir",
              STORE.dataDir().toString(),
              "Where the series database and its lock file live.")
          .label("DIR");
  public static final Setting<Integer> RAW_POINTS =
      Setting.integer(
              "rawPoints",
              (int) STORE.rawPoints(),
              "Raw points kept per series (older ones remain in the consolidated archive).")
          .atLeast(1);
  public static final Setting<Long> RAW_MAX_AGE_SECONDS =
      Setting.longInteger(
              "rawMaxAgeSeconds",
              STORE.rawMaxAge().toSeconds(),
              "Raw points older than this many seconds are dropped; 0 keeps them whatever their age.")
          .atLeast(0);
  public static final Setting<Integer> MAX_SERIES =
      Setting.integer(
              "maxSeries",
              STORE.maxSeries(),
              "Series this memory-host may hold in all; appends that would create more are refused.")
          .atLeast(1);
  public static final Setting<Integer> MAX_NEW_SERIES_PER_CALL =
      Setting.integer(
              "maxNewSeriesPerCall", STORE.maxNewSeriesPerCall(), "Series one append may create.")
          .atLeast(1);
  public static final Setting<Integer> MAX_NEW_SERIES_PER_CALLER_PER_MINUTE =
      Setting.integer(
              "maxNewSeriesPerCallerPerMinute",
              STORE.maxNewSeriesPerCallerPerMinute(),
              "Series one caller (by host address) may create per minute.")
          .atLeast(1);
  public static final Setting<Long> CONSOLIDATION_INTERVAL_SECONDS =
      Setting.longInteger(
              "consolidationIntervalSeconds",
              STORE.consolidationInterval().toSeconds(),
              "Seconds between bringing each series' consolidated archive up to date.")
          .atLeast(1);
  public static final Setting<Integer> MAX_WATCHES =
      DaemonSettings.maxWatches(1024, "Measurement watch (Watch)");
  public static final Setting<Integer> MAX_WATCHES_PER_CALLER =
      DaemonSettings.maxWatchesPerCaller(64, "Measurement watch (Watch)");
  public static final Setting<Integer> MAX_APPEND_STREAMS =
      Setting.integer(
              "maxAppendStreams",
              MemoryHostService.MAX_APPEND_STREAMS,
              "Append streams (AppendStream) open at once, in all; more are refused.")
          .atLeast(1);
  public static final Setting<Integer> MAX_QUEUED_PER_CALLER =
      Setting.integer(
              "maxQueuedPerCaller",
              STORE.maxQueuedPerCaller(),
              "Appends one caller (an address, or a certificate's identity) may have waiting to be"
                  + " written, of 4 096 (its points: the same share of a million); more are"
                  + " refused, so one caller cannot fill the write queue for every other.")
          .between(1, 4096);
  public static final Setting<Integer> MAX_APPEND_STREAMS_PER_CALLER =
      Setting.integer(
              "maxAppendStreamsPerCaller",
              MemoryHostService.MAX_APPEND_STREAMS_PER_CALLER,
              "Append streams one caller (an address, or a certificate's identity) may hold open.")
          .atLeast(1);
  public static final Setting<String> NAMESERVER = DaemonSettings.nameserver();
  public static final Setting<String> NAME = DaemonSettings.name("memory");
  public static final Setting<String> HOST = DaemonSettings.host();
  public static final Setting<String> ADVERTISE = DaemonSettings.advertise();
  public static final Setting<Integer> TTL_SECONDS = DaemonSettings.ttlSeconds();
  public static final Setting<String> CLUSTER =
      DaemonSettings.optionalCluster("Cluster attribute of the registration; empty means none.");

  public static final Setting<String> REGISTRY =
      Setting.text(
              "registry",
              RegistryLocation.LOCAL,
              "Where the site's shared state lives: local (none: the nameserver's series directory"
                  + " places series) or zookeeper://HOST:PORT,.../PATH, where this memory-host"
                  + " joins the memory group and is given shards (see docs/placement.md).")
          .label("URL")
          .check("local or zookeeper://HOST:PORT,.../PATH", RegistryLocation::problem);

  public static final Setting<String> TLS_CERT = DaemonSettings.tlsCert();
  public static final Setting<String> TLS_KEY = DaemonSettings.tlsKey();
  public static final Setting<String> TLS_CA = DaemonSettings.tlsCa();
  public static final Setting<Boolean> TLS_ANONYMOUS_READS = DaemonSettings.tlsAnonymousReads();

  public static final ConfigSchema SCHEMA =
      ConfigSchema.of(
              "memory-host",
              PORT,
              METRICS_PORT,
              DATA_DIR,
              RAW_POINTS,
              RAW_MAX_AGE_SECONDS,
              MAX_SERIES,
              MAX_NEW_SERIES_PER_CALL,
              MAX_NEW_SERIES_PER_CALLER_PER_MINUTE,
              CONSOLIDATION_INTERVAL_SECONDS,
              MAX_WATCHES,
              MAX_WATCHES_PER_CALLER,
              MAX_APPEND_STREAMS,
              MAX_APPEND_STREAMS_PER_CALLER,
              MAX_QUEUED_PER_CALLER,
              NAMESERVER,
              NAME,
              HOST,
              ADVERTISE,
              TTL_SECONDS,
              CLUSTER,
              REGISTRY,
              TLS_CERT,
              TLS_KEY,
              TLS_CA,
              TLS_ANONYMOUS_READS)
          .plus(LogSettings.SETTINGS)
          .plus(ConnectionSettings.SETTINGS);

  public final int port;
  public final int metricsPort;
  public final String dataDir;
  public final int rawPoints;
  public final long rawMaxAgeSeconds;
  public final int maxSeries;
  public final int maxNewSeriesPerCall;
  public final int maxNewSeriesPerCallerPerMinute;
  public final long consolidationIntervalSeconds;
  public final int maxWatches;
  public final int maxWatchesPerCaller;
  public final int maxAppendStreams;
  public final int maxAppendStreamsPerCaller;
  public final int maxQueuedPerCaller;
  public final String nameserver;
  public final String name;
  public final String host;
  public final String advertise;
  public final int ttlSeconds;
  public final String cluster;
  public final RegistryLocation registry;
  private final String tlsCert;
  private final String tlsKey;
  private final String tlsCa;
  private final boolean tlsAnonymousReads;
  private final ConfigValues values;

  /** The snapshot of {@code values}, which must be of {@link #SCHEMA}. */
  public MemoryHostProperties(ConfigValues values) {
    if (values.schema() != SCHEMA) {
      throw new IllegalArgumentException(values.schema() + " values are not the memory-host's");
    }
    this.values = values;
    port = values.get(PORT);
    metricsPort = values.get(METRICS_PORT);
    dataDir = values.get(DATA_DIR);
    rawPoints = values.get(RAW_POINTS);
    rawMaxAgeSeconds = values.get(RAW_MAX_AGE_SECONDS);
    maxSeries = values.get(MAX_SERIES);
    maxNewSeriesPerCall = values.get(MAX_NEW_SERIES_PER_CALL);
    maxNewSeriesPerCallerPerMinute = values.get(MAX_NEW_SERIES_PER_CALLER_PER_MINUTE);
    consolidationIntervalSeconds = values.get(CONSOLIDATION_INTERVAL_SECONDS);
    maxWatches = values.get(MAX_WATCHES);
    maxWatchesPerCaller = values.get(MAX_WATCHES_PER_CALLER);
    maxAppendStreams = values.get(MAX_APPEND_STREAMS);
    maxAppendStreamsPerCaller = values.get(MAX_APPEND_STREAMS_PER_CALLER);
    maxQueuedPerCaller = values.get(MAX_QUEUED_PER_CALLER);
    nameserver = values.get(NAMESERVER);
    name = values.get(NAME);
    host = values.get(HOST);
    advertise = values.get(ADVERTISE);
    ttlSeconds = values.get(TTL_SECONDS);
    cluster = values.get(CLUSTER);
    registry = RegistryLocation.parse(values.get(REGISTRY));
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
  public static MemoryHostProperties defaults() {
    return new MemoryHostProperties(SCHEMA.defaults());
  }

  /** A copy with one setting changed (checked against its rules). */
  public <T> MemoryHostProperties with(Setting<T> setting, T value) {
    return new MemoryHostProperties(values.with(setting, value));
  }

  /** The values with where each came from. */
  public ConfigValues values() {
    return values;
  }

  /** The store's options. */
  public StoreOptions storeOptions() {
    return new StoreOptions(
        Path.of(dataDir),
        rawPoints,
        Duration.ofSeconds(rawMaxAgeSeconds),
        maxSeries,
        maxNewSeriesPerCall,
        maxNewSeriesPerCallerPerMinute,
        Duration.ofSeconds(consolidationIntervalSeconds),
        maxQueuedPerCaller);
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
