package org.netweather.runtime.tls;

import java.time.Duration;
import java.util.List;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.config.Setting;

/**
 * The connection keys every daemon's configuration has (see {@link ConnectionLimits}); 0 for a cap
 * means the default derived from the process's descriptor limit.
 */
public final class ConnectionSettings {
  private ConnectionSettings() {}

  public static final Setting<Integer> MAX_CONNECTIONS =
      Setting.integer(
              "maxConnections",
              0,
              "Connections the gRPC server holds at once; more are closed as they are accepted."
                  + " 0: the process's descriptor limit less a quarter kept for the daemon's own"
                  + " files.")
          .atLeast(0);
  public static final Setting<Integer> MAX_CONNECTIONS_PER_ADDRESS =
      Setting.integer(
              "maxConnectionsPerAddress",
              0,
              "Connections one IP address may hold at once; more are closed as they are"
                  + " accepted. 0: a quarter of maxConnections, between 16 and 1024.")
          .atLeast(0);
  public static final Setting<Integer> HANDSHAKE_TIMEOUT_SECONDS =
      Setting.integer(
              "handshakeTimeoutSeconds",
              (int) ConnectionLimits.HANDSHAKE_TIMEOUT.toSeconds(),
              "Seconds a new connection has to finish its TLS handshake and send the HTTP/2"
                  + " preface before it is closed.")
          .between(1, 3600);

  /** The keys, in the order each daemon's schema lists them. */
  public static final List<Setting<?>> SETTINGS =
      List.of(MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS, HANDSHAKE_TIMEOUT_SECONDS);

  /** The limits in a daemon's configuration (whose schema includes {@link #SETTINGS}). */
  public static ConnectionLimits limits(ConfigValues values) {
    return limits(
        values.get(MAX_CONNECTIONS),
        values.get(MAX_CONNECTIONS_PER_ADDRESS),
        values.get(HANDSHAKE_TIMEOUT_SECONDS),
        ConnectionLimits.descriptorLimit());
  }

  static ConnectionLimits limits(
      int maxConnections, int perAddress, int handshakeSeconds, long descriptors) {
    ConnectionLimits derived = ConnectionLimits.forDescriptors(descriptors);
    int total = maxConnections > 0 ? maxConnections : derived.maxConnections();
    int mine = perAddress > 0 ? perAddress : Math.max(16, Math.min(1024, total / 4));
    return derived
        .withConnections(total, mine)
        .withHandshakeTimeout(Duration.ofSeconds(handshakeSeconds));
  }
}
