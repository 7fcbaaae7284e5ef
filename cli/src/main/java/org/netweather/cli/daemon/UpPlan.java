package org.netweather.cli.daemon;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.netweather.forecaster.ForecasterProperties;
import org.netweather.memoryhost.MemoryHostProperties;
import org.netweather.model.SeriesName;
import org.netweather.nameserver.NameserverProperties;
import org.netweather.proxy.ProxyProperties;
import org.netweather.runtime.Addresses;
import org.netweather.runtime.config.ConfigException;
import org.netweather.runtime.config.ConfigSchema;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.config.Setting;
import org.netweather.runtime.config.Source;
import org.netweather.runtime.config.YamlConfigFile;
import org.netweather.sensor.daemon.SensorProperties;

/**
 * What {@code nws up} runs: its own settings and each daemon's configuration. Its file has one
 * section per daemon ({@code nameserver}, {@code memory-host}, {@code forecaster}, {@code proxy},
 * {@code sensor}) with that daemon's keys, and an {@code up} section with {@link UpProperties}. The
 * keys that wire the daemons together (ports, data directories, host, nameserver, cluster, metrics
 * port) come from the {@code up} section; setting them in a daemon's section is an error rather
 * than a silent override.
 */
final class UpPlan {
  private static final List<ConfigSchema> DAEMONS =
      List.of(
          NameserverProperties.SCHEMA,
          MemoryHostProperties.SCHEMA,
          ForecasterProperties.SCHEMA,
          ProxyProperties.SCHEMA,
          SensorProperties.SCHEMA);

  /** A daemon's setting whose value {@code nws up} derives from one of its own. */
  private record Wire<T>(Setting<T> setting, T value, Setting<?> from) {}

  private final ConfigValues up;
  private final Path file;
  private final Map<String, Map<String, YamlConfigFile.Entry>> sections;
  private final String host;
  private final AdvertisedAddress advertised;

  private UpPlan(
      ConfigValues up,
      Path file,
      Map<String, Map<String, YamlConfigFile.Entry>> sections,
      LocalAddresses net) {
    this.up = up;
    this.file = file;
    this.sections = sections;
    String configured = up.get(UpProperties.HOST);
    this.host = configured.isEmpty() ? Addresses.localHostName() : configured;
    String problem = SeriesName.nameProblem("host", host);
    if (problem != null) {
      throw new ConfigException(
          problem
              + (configured.isEmpty() ? " (this machine's host name)" : "")
              + "; give --host NAME");
    }
    this.advertised =
        AdvertisedAddress.choose(up.get(UpProperties.ADVERTISE), listenAll(), host, net);
  }

  /**
   * Reads {@code file} (null for none); {@code flags} lays the command's flags over the {@code up}
   * section.
   */
  static UpPlan read(Path file, UnaryOperator<ConfigValues.Builder> flags) {
    return read(file, flags, LocalAddresses.system());
  }

  /** As {@link #read(Path, UnaryOperator)}, looking at {@code net} for this machine's addresses. */
  static UpPlan read(Path file, UnaryOperator<ConfigValues.Builder> flags, LocalAddresses net) {
    Map<String, Map<String, YamlConfigFile.Entry>> sections = new LinkedHashMap<>();
    Path path = null;
    if (file != null) {
      YamlConfigFile yaml = YamlConfigFile.read(file);
      path = yaml.path();
      List<String> known = new ArrayList<>(List.of(UpProperties.SCHEMA.name()));
      DAEMONS.forEach(d -> known.add(d.name()));
      for (YamlConfigFile.Entry e : yaml.entries().values()) {
        String at = "config file " + path + ", line " + e.line();
        if (!known.contains(e.key())) {
          throw new ConfigException(
              at
                  + ": unknown section '"
                  + e.key()
                  + "' (known sections: "
                  + String.join(", ", known)
                  + ")");
        }
        if (!e.isSection()) {
          throw new ConfigException(
              at + ": section '" + e.key() + "' must be a mapping of key: value");
        }
        sections.put(e.key(), e.section());
      }
    }
    ConfigValues.Builder b = ConfigValues.builder(UpProperties.SCHEMA).keyPrefix("up.");
    if (path != null) {
      b.entries(path, sections.getOrDefault("up", Map.of()));
    }
    return new UpPlan(flags.apply(b).build(), path, sections, net);
  }

  ConfigValues up() {
    return up;
  }

  /** This machine's name: in its series, its sensor's and its proxy's cluster membership. */
  String host() {
    return host;
  }

  /** The address every daemon registers at, why, and what other hosts would get wrong. */
  AdvertisedAddress advertised() {
    return advertised;
  }

  /** The dashboard's port, or -1 for no dashboard. */
  int webPort() {
    return up.get(UpProperties.NO_WEB) ? -1 : up.get(UpProperties.WEB_PORT);
  }

  Path dataDir() {
    return Path.of(up.get(UpProperties.DATA_DIR));
  }

  String cluster() {
    return up.get(UpProperties.CLUSTER);
  }

  boolean listenAll() {
    return up.get(UpProperties.LISTEN_ALL);
  }

  int metricsPort() {
    return up.get(UpProperties.METRICS_PORT);
  }

  /** Every configuration, {@code up}'s first, as if the nameserver got its configured port. */
  List<ConfigValues> all() {
    int ns = up.get(UpProperties.NAMESERVER_PORT);
    return List.of(
        up,
        nameserver().values(),
        memoryHost(ns).values(),
        forecaster(ns).values(),
        proxy(ns).values(),
        sensor(ns).values());
  }

  NameserverProperties nameserver() {
    return new NameserverProperties(
        daemon(
            NameserverProperties.SCHEMA,
            List.of(
                new Wire<>(
                    NameserverProperties.PORT,
                    up.get(UpProperties.NAMESERVER_PORT),
                    UpProperties.NAMESERVER_PORT),
                new Wire<>(NameserverProperties.DATA_DIR, dir("nameserver"), UpProperties.DATA_DIR),
                new Wire<>(NameserverProperties.HOST, host(), UpProperties.HOST),
                new Wire<>(
                    NameserverProperties.ADVERTISE, advertised.address(), UpProperties.ADVERTISE),
                new Wire<>(
                    NameserverProperties.METRICS_PORT, metricsPort(), UpProperties.METRICS_PORT))));
  }

  /** {@code nameserverPort} is the port the nameserver listens on (it may have picked one). */
  MemoryHostProperties memoryHost(int nameserverPort) {
    return new MemoryHostProperties(
        daemon(
            MemoryHostProperties.SCHEMA,
            List.of(
                new Wire<>(
                    MemoryHostProperties.PORT,
                    up.get(UpProperties.MEMORY_PORT),
                    UpProperties.MEMORY_PORT),
                new Wire<>(MemoryHostProperties.DATA_DIR, dir("memory"), UpProperties.DATA_DIR),
                new Wire<>(MemoryHostProperties.HOST, host(), UpProperties.HOST),
                new Wire<>(
                    MemoryHostProperties.ADVERTISE, advertised.address(), UpProperties.ADVERTISE),
                new Wire<>(
                    MemoryHostProperties.NAMESERVER,
                    nameserver(nameserverPort),
                    UpProperties.NAMESERVER_PORT),
                new Wire<>(
                    MemoryHostProperties.METRICS_PORT, metricsPort(), UpProperties.METRICS_PORT))));
  }

  ForecasterProperties forecaster(int nameserverPort) {
    return new ForecasterProperties(
        daemon(
            ForecasterProperties.SCHEMA,
            List.of(
                new Wire<>(
                    ForecasterProperties.PORT,
                    up.get(UpProperties.FORECASTER_PORT),
                    UpProperties.FORECASTER_PORT),
                new Wire<>(ForecasterProperties.HOST, host(), UpProperties.HOST),
                new Wire<>(
                    ForecasterProperties.ADVERTISE, advertised.address(), UpProperties.ADVERTISE),
                new Wire<>(
                    ForecasterProperties.NAMESERVER,
                    nameserver(nameserverPort),
                    UpProperties.NAMESERVER_PORT),
                new Wire<>(
                    ForecasterProperties.METRICS_PORT, metricsPort(), UpProperties.METRICS_PORT))));
  }

  ProxyProperties proxy(int nameserverPort) {
    return new ProxyProperties(
        daemon(
            ProxyProperties.SCHEMA,
            List.of(
                new Wire<>(
                    ProxyProperties.PORT, up.get(UpProperties.PROXY_PORT), UpProperties.PROXY_PORT),
                new Wire<>(ProxyProperties.HOST, host(), UpProperties.HOST),
                new Wire<>(ProxyProperties.ADVERTISE, advertised.address(), UpProperties.ADVERTISE),
                new Wire<>(
                    ProxyProperties.NAMESERVER,
                    nameserver(nameserverPort),
                    UpProperties.NAMESERVER_PORT),
                new Wire<>(ProxyProperties.CLUSTER, cluster(), UpProperties.CLUSTER),
                new Wire<>(ProxyProperties.HOSTS, List.of(host()), UpProperties.HOST),
                new Wire<>(
                    ProxyProperties.METRICS_PORT, metricsPort(), UpProperties.METRICS_PORT))));
  }

  SensorProperties sensor(int nameserverPort) {
    return new SensorProperties(
        daemon(
            SensorProperties.SCHEMA,
            List.of(
                new Wire<>(SensorProperties.HOST, host(), UpProperties.HOST),
                new Wire<>(
                    SensorProperties.ADVERTISE, advertised.address(), UpProperties.ADVERTISE),
                new Wire<>(
                    SensorProperties.PORT,
                    up.get(UpProperties.SENSOR_PORT),
                    UpProperties.SENSOR_PORT),
                new Wire<>(
                    SensorProperties.PROBE_PORT,
                    up.get(UpProperties.PROBE_PORT),
                    UpProperties.PROBE_PORT),
                new Wire<>(
                    SensorProperties.NAMESERVER,
                    nameserver(nameserverPort),
                    UpProperties.NAMESERVER_PORT),
                new Wire<>(SensorProperties.DATA_DIR, dir("sensor"), UpProperties.DATA_DIR),
                new Wire<>(SensorProperties.CLUSTER, cluster(), UpProperties.CLUSTER),
                new Wire<>(
                    SensorProperties.BIND,
                    listenAll() ? "" : InetAddress.getLoopbackAddress().getHostAddress(),
                    UpProperties.LISTEN_ALL),
                new Wire<>(
                    SensorProperties.METRICS_PORT, metricsPort(), UpProperties.METRICS_PORT))));
  }

  private String dir(String daemon) {
    return dataDir().resolve(daemon).toString();
  }

  /** The daemons of this process dial their nameserver on loopback, where it always listens. */
  private static String nameserver(int port) {
    return AdvertisedAddress.LOOPBACK_NAME + ":" + port;
  }

  /** The daemon's defaults, then its section of the file, then what {@code up} wires. */
  private ConfigValues daemon(ConfigSchema schema, List<Wire<?>> wires) {
    Map<String, YamlConfigFile.Entry> section = sections.getOrDefault(schema.name(), Map.of());
    for (Wire<?> w : wires) {
      YamlConfigFile.Entry e = section.get(w.setting().key());
      if (e != null) {
        throw new ConfigException(
            "config file "
                + file
                + ", line "
                + e.line()
                + ": "
                + schema.name()
                + "."
                + e.key()
                + " is set by nws up; set up."
                + w.from().key()
                + " ("
                + w.from().flag()
                + ") instead");
      }
    }
    ConfigValues.Builder b = ConfigValues.builder(schema).keyPrefix(schema.name() + ".");
    if (file != null) {
      b.entries(file, section);
    }
    for (Wire<?> w : wires) {
      wire(b, w);
    }
    return b.build();
  }

  private <T> void wire(ConfigValues.Builder b, Wire<T> w) {
    b.set(
        w.setting(),
        w.value(),
        Source.derived("nws up, from up." + w.from().key() + " (" + source(w.from()) + ")"));
  }

  /** Where {@code up}'s setting came from; for a default that looks at the machine, what it saw. */
  private String source(Setting<?> s) {
    String given = up.source(s).toString();
    if (s == UpProperties.HOST && up.get(UpProperties.HOST).isEmpty()) {
      return given + ": this machine's host name";
    }
    if (s == UpProperties.ADVERTISE && up.get(UpProperties.ADVERTISE).isEmpty()) {
      return given + ": " + advertised.why();
    }
    return given;
  }
}
