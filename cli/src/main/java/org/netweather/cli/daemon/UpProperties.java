package org.netweather.cli.daemon;

import org.netweather.forecaster.ForecasterProperties;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.proxy.ProxyProperties;
import org.netweather.runtime.config.ConfigSchema;
import org.netweather.runtime.config.DaemonSettings;
import org.netweather.runtime.config.Setting;
import org.netweather.runtime.logging.LogSettings;
import org.netweather.sensor.daemon.SensorProperties;

/**
 * The settings of {@code nws up} itself (the {@code up} section of its file): what ties the daemons
 * together on one machine. Each daemon's port defaults to that daemon's own default.
 */
final class UpProperties {
  static final Setting<String> DATA_DIR =
      Setting.text(
              "dataDir",
              "nws-data",
              "Where every daemon keeps its data, each in a directory named after it.")
          .label("DIR");
  static final Setting<String> HOST =
      Setting.text(
          "host",
          "",
          "This machine's name in its series (cpu.availability:HOST) and registrations; empty means"
              + " its host name.");
  static final Setting<String> ADVERTISE =
      Setting.text(
              "advertise",
              "",
              "Address other hosts dial to reach every daemon (each registers ADDR:PORT). Empty"
                  + " means localhost, or with listenAll this machine's address (its host name's,"
                  + " else its interface's).")
          .label("ADDR");
  static final Setting<Integer> NAMESERVER_PORT =
      daemonPort("nameserverPort", NameserverProperties.PORT);
  static final Setting<Integer> MEMORY_PORT = daemonPort("memoryPort", MemoryHostProperties.PORT);
  static final Setting<Integer> FORECASTER_PORT =
      daemonPort("forecasterPort", ForecasterProperties.PORT);
  static final Setting<Integer> PROXY_PORT = daemonPort("proxyPort", ProxyProperties.PORT);
  static final Setting<Integer> SENSOR_PORT = daemonPort("sensorPort", SensorProperties.PORT);
  static final Setting<Integer> PROBE_PORT =
      Setting.integer(
              "probePort",
              SensorProperties.PROBE_PORT.defaultValue(),
              "The sensor's probe listener port.")
          .between(0, 65535)
          .label("PORT");
  static final Setting<Integer> METRICS_PORT = DaemonSettings.metricsPort(8099);
  static final Setting<String> CLUSTER =
      DaemonSettings.cluster(
          "local",
          "Cluster name of this machine (its sensor's attribute and its proxy's cluster).");

  static final Setting<Boolean> LISTEN_ALL =
      Setting.bool(
          "listenAll",
          false,
          "Listen on every interface; by default every daemon (and the sensor's probe listener)"
              + " listens on loopback only, unreachable from other machines.");

  static final Setting<Integer> WEB_PORT =
      Setting.integer("webPort", 8095, "The dashboard's HTTP port; 0 picks a free one.")
          .between(0, 65535)
          .label("PORT");
  static final Setting<Boolean> NO_WEB =
      Setting.bool("noWeb", false, "Leave the dashboard (nws web) out.");

  static final ConfigSchema SCHEMA =
      ConfigSchema.of(
              "up",
              DATA_DIR,
              HOST,
              ADVERTISE,
              NAMESERVER_PORT,
              MEMORY_PORT,
              FORECASTER_PORT,
              PROXY_PORT,
              SENSOR_PORT,
              PROBE_PORT,
              METRICS_PORT,
              CLUSTER,
              LISTEN_ALL,
              WEB_PORT,
              NO_WEB)
          .plus(LogSettings.SETTINGS);

  private UpProperties() {}

  private static Setting<Integer> daemonPort(String key, Setting<Integer> daemons) {
    String daemon = key.substring(0, key.length() - "Port".length());
    return Setting.integer(
            key, daemons.defaultValue(), "gRPC port of the " + daemon + "; 0 picks a free one.")
        .between(0, 65535)
        .label("PORT");
  }
}
