package org.netweather.nameserver;

import java.time.Duration;
import java.util.Optional;
import org.netweather.nameserver.placement.ReplaceAfter;
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
 * The nameserver's configuration: its settings (keys of the YAML file, flags of {@code nws
 * nameserver}) declared once below, and an immutable, checked snapshot of their values.
 */
public final class NameserverProperties {
  public static final Setting<Integer> PORT =
      DaemonSettings.port(
          DaemonSettings.NAMESERVER_PORT,
          "gRPC port; 0 picks a free one. The original NWS nameserver used 8090.");
  public static final Setting<Integer> METRICS_PORT = DaemonSettings.metricsPort(8099);
  public static final Setting<String> DATA_DIR =
      Setting.text("dataDir", "nws-data/nameserver", "Where the snapshot and journal live.")
          .label("DIR");
  public static final Setting<String> HOST =
      Setting.text(
          "host",
          "",
          "Host name written into the nameserver's own registration; empty means this machine's.");
  public static final Setting<String> ADVERTISE = DaemonSettings.advertise();

  public static final Setting<Integer> MAX_WATCHES =
      Setting.integer(
              "maxWatches",
              20_000,
              "Clique watches (WatchCliques streams) open at once, in all: about one per sensor.")
          .atLeast(1);
  public static final Setting<Integer> MAX_WATCHES_PER_CALLER =
      Setting.integer(
              "maxWatchesPerCaller", 256, "Clique watches one client connection may hold open.")
          .atLeast(1);
  public static final Setting<Integer> MAX_REGISTRATIONS_PER_CALLER =
      Setting.integer(
              "maxRegistrationsPerCaller",
              16,
              "Live registrations one certified identity (other than admin) may hold; plaintext"
                  + " callers have no identity to count by.")
          .atLeast(1);
  public static final Setting<Integer> WATCH_QUEUE =
      Setting.integer(
              "watchQueue",
              16,
              "Clique updates held for a watcher that does not read before its stream is ended.")
          .atLeast(1);
  public static final Setting<Integer> MISSING_MAX =
      Setting.integer(
              "missingMax",
              10_000,
              "Daemons gone (lease expired or unregistered) kept to be listed as missing by nws"
                  + " status; when more go, the first gone is forgotten first. 0 keeps none.")
          .atLeast(0);
  public static final Setting<Integer> MISSING_HOURS =
      Setting.integer("missingHours", 24, "How long a daemon gone is listed as missing, in hours.")
          .atLeast(1);

  public static final Setting<String> REGISTRY =
      Setting.text(
              "registry",
              RegistryLocation.LOCAL,
              "Where the site's shared state lives: local (this nameserver's data directory) or"
                  + " zookeeper://HOST:PORT,.../PATH (an ensemble; see docs/zookeeper.md).")
          .label("URL")
          .check("local or zookeeper://HOST:PORT,.../PATH", RegistryLocation::problem);

  public static final Setting<String> PLACEMENT_REPLACE_AFTER =
      Setting.text(
              "placementReplaceAfter",
              "1h",
              "With the ZooKeeper registry: how long a memory-host may be gone before the shards"
                  + " placed on it move to the others (never sooner: a restart or a blip moves"
                  + " nothing). A whole number with s, m, h or d; at least 1m.")
          .label("DURATION")
          .check("a duration of at least 1m, as 90s, 10m or 1h", ReplaceAfter::problem);

  public static final Setting<String> TLS_CERT = DaemonSettings.tlsCert();
  public static final Setting<String> TLS_KEY = DaemonSettings.tlsKey();
  public static final Setting<String> TLS_CA = DaemonSettings.tlsCa();
  public static final Setting<Boolean> TLS_ANONYMOUS_READS = DaemonSettings.tlsAnonymousReads();

  public static final ConfigSchema SCHEMA =
      ConfigSchema.of(
              "nameserver",
              PORT,
              METRICS_PORT,
              DATA_DIR,
              HOST,
              ADVERTISE,
              MAX_WATCHES,
              MAX_WATCHES_PER_CALLER,
              MAX_REGISTRATIONS_PER_CALLER,
              WATCH_QUEUE,
              MISSING_MAX,
              MISSING_HOURS,
              REGISTRY,
              PLACEMENT_REPLACE_AFTER,
              TLS_CERT,
              TLS_KEY,
              TLS_CA,
              TLS_ANONYMOUS_READS)
          .plus(LogSettings.SETTINGS)
          .plus(ConnectionSettings.SETTINGS);

  public final int port;
  public final int metricsPort;
  public final String dataDir;
  public final String host;
  public final String advertise;
  public final int maxWatches;
  public final int maxWatchesPerCaller;
  public final int maxRegistrationsPerCaller;
  public final int watchQueue;
  public final int missingMax;
  public final int missingHours;
  public final RegistryLocation registry;
  public final Duration placementReplaceAfter;
  private final String tlsCert;
  private final String tlsKey;
  private final String tlsCa;
  private final boolean tlsAnonymousReads;
  private final ConfigValues values;

  /** The snapshot of {@code values}, which must be of {@link #SCHEMA}. */
  public NameserverProperties(ConfigValues values) {
    if (values.schema() != SCHEMA) {
      throw new IllegalArgumentException(values.schema() + " values are not the nameserver's");
    }
    this.values = values;
    port = values.get(PORT);
    metricsPort = values.get(METRICS_PORT);
    dataDir = values.get(DATA_DIR);
    host = values.get(HOST);
    advertise = values.get(ADVERTISE);
    maxWatches = values.get(MAX_WATCHES);
    maxWatchesPerCaller = values.get(MAX_WATCHES_PER_CALLER);
    maxRegistrationsPerCaller = values.get(MAX_REGISTRATIONS_PER_CALLER);
    watchQueue = values.get(WATCH_QUEUE);
    missingMax = values.get(MISSING_MAX);
    missingHours = values.get(MISSING_HOURS);
    registry = RegistryLocation.parse(values.get(REGISTRY));
    placementReplaceAfter = ReplaceAfter.parse(values.get(PLACEMENT_REPLACE_AFTER));
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

  /**
   * The same TLS files for the link to ZooKeeper (used with {@code registry: zookeeper+tls://}).
   *
   * @throws IllegalArgumentException naming a key that is missing or whose file cannot be read
   */
  public Optional<RegistryTls> registryTls() {
    return RegistryTls.of(tlsCert, tlsKey, tlsCa);
  }

  /** Every setting at its default. */
  public static NameserverProperties defaults() {
    return new NameserverProperties(SCHEMA.defaults());
  }

  /** A copy with one setting changed (checked against its rules). */
  public <T> NameserverProperties with(Setting<T> setting, T value) {
    return new NameserverProperties(values.with(setting, value));
  }

  /** The values with where each came from. */
  public ConfigValues values() {
    return values;
  }
}
