package org.netweather.benchmarks.site;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The site benchmark's command line: {@code --name value} pairs, every one with a default but
 * {@code --hosts}.
 */
record SiteOptions(
    int hosts,
    double fillRate,
    int fillMaxSeconds,
    int settleSeconds,
    int realSeconds,
    int afterRestartSeconds,
    int spools,
    int connections,
    int threads,
    int follow,
    int verifySample,
    long deliveryMs,
    boolean appendStreams,
    boolean peerSearch,
    int ttlSeconds,
    int cliqueSize,
    int clusterHosts,
    int consolidationSeconds,
    Path dir,
    Path spoolDir,
    boolean keep,
    long seed,
    int forecasters,
    int nameservers,
    boolean restartForecaster) {

  static final String USAGE =
      """
      usage: benchmarks/run site --hosts N [OPTION VALUE]...
        --hosts N                 simulated hosts (required)
        --fill-rate X             speed of simulated time in the fill phase (10)
        --fill-max S              give up filling after S seconds (600)
        --settle S                seconds at real rate before those measured (300): the JIT,
                                  the heap's first touch and the archives' catching up with
                                  the fill take about five minutes after a start
        --real S                  seconds at real rate before the restarts (60)
        --after-restart S         seconds of load after each restart (30)
        --spools N                spools, each with its Delivery (min(hosts, 2000))
        --connections N           channel pairs (nameserver, memory-host) shared by hosts (min(hosts, 500))
        --threads N               threads running heartbeats, clique polls and deliveries (32)
        --follow N                series whose forecasts are followed for the delay (60)
        --verify-sample N         series read back fully at the end (200)
        --delivery-ms MS          each sensor's delivery period, as the sensor's deliveryIntervalMs (5000)
        --append-streams true|false  deliver on one long-lived AppendStream per connection, as the sensor does (true); false: one Append call per batch
        --peer-search true|false  look up clique members by Search on each clique change, as the sensor does (true)
        --ttl S                   sensor lease TTL, as the sensor's ttlSeconds (180)
        --clique-size N           hosts per clique (16)
        --cluster-hosts N         hosts per cluster attribute; the proxy serves the first (64)
        --consolidation S         memory-host consolidationIntervalSeconds (7200)
        --dir DIR                 daemons' data and logs (a new temporary directory)
        --spool-dir DIR           spools (a new directory under /dev/shm when it exists)
        --keep true|false         keep DIR and the spools afterwards (false)
        --seed N                  seed of values, phases and samples (1)
        --forecasters K           forecaster processes sharing the shards (1); K > 1 or
                                  --nameservers > 1 starts a ZooKeeper ensemble of three and
                                  gives every daemon the registry; the first is the one killed
        --nameservers N           nameserver processes side by side (1); sensors and clients
                                  are given every one of them
        --restart-forecaster true|false  start the killed forecaster again (true); with
                                  --forecasters > 1, false leaves it down after the takeover
      """;

  /** Whether the site runs on the ZooKeeper registry: more than one forecaster or nameserver. */
  boolean scaledOut() {
    return forecasters > 1 || nameservers > 1;
  }

  static SiteOptions parse(String[] args) throws java.io.IOException {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        throw new IllegalArgumentException("");
      }
      if (!a.startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --name value at '" + a + "'");
      }
      m.put(a.substring(2), args[++i]);
    }
    if (!m.containsKey("hosts")) {
      throw new IllegalArgumentException("--hosts is required");
    }
    int hosts = positive(m, "hosts", 0);
    Path dir =
        m.containsKey("dir") ? Path.of(m.remove("dir")) : Files.createTempDirectory("nws-site");
    Path shm = Path.of("/dev/shm");
    Path spoolDir =
        m.containsKey("spool-dir")
            ? Path.of(m.remove("spool-dir"))
            : Files.createTempDirectory(Files.isDirectory(shm) ? shm : dir, "nws-site-spools");
    SiteOptions o =
        new SiteOptions(
            hosts,
            Double.parseDouble(m.getOrDefault("fill-rate", "10")),
            positive(m, "fill-max", 600),
            Math.max(0, Integer.parseInt(m.getOrDefault("settle", "300"))),
            positive(m, "real", 60),
            positive(m, "after-restart", 30),
            positive(m, "spools", Math.min(hosts, 2000)),
            positive(m, "connections", Math.min(hosts, 500)),
            positive(m, "threads", 32),
            positive(m, "follow", 60),
            positive(m, "verify-sample", 200),
            positive(m, "delivery-ms", 5000),
            Boolean.parseBoolean(m.getOrDefault("append-streams", "true")),
            Boolean.parseBoolean(m.getOrDefault("peer-search", "true")),
            positive(m, "ttl", 180),
            positive(m, "clique-size", 16),
            positive(m, "cluster-hosts", 64),
            positive(m, "consolidation", 7200),
            dir,
            spoolDir,
            Boolean.parseBoolean(m.getOrDefault("keep", "false")),
            Long.parseLong(m.getOrDefault("seed", "1")),
            positive(m, "forecasters", 1),
            positive(m, "nameservers", 1),
            Boolean.parseBoolean(m.getOrDefault("restart-forecaster", "true")));
    for (String k :
        new String[] {
          "hosts",
          "fill-rate",
          "fill-max",
          "settle",
          "real",
          "after-restart",
          "spools",
          "connections",
          "threads",
          "follow",
          "verify-sample",
          "delivery-ms",
          "append-streams",
          "peer-search",
          "ttl",
          "clique-size",
          "cluster-hosts",
          "consolidation",
          "keep",
          "seed",
          "forecasters",
          "nameservers",
          "restart-forecaster"
        }) {
      m.remove(k);
    }
    if (!m.isEmpty()) {
      throw new IllegalArgumentException("unknown option(s) " + m.keySet());
    }
    if (o.cliqueSize < 2 || o.fillRate < 1 || o.spools > hosts || o.connections > hosts) {
      throw new IllegalArgumentException(
          "need --clique-size >= 2, --fill-rate >= 1, --spools and --connections <= --hosts");
    }
    return o;
  }

  private static int positive(Map<String, String> m, String key, int dflt) {
    int v = m.containsKey(key) ? Integer.parseInt(m.get(key)) : dflt;
    if (v < 1) {
      throw new IllegalArgumentException("--" + key + " must be at least 1");
    }
    return v;
  }
}
