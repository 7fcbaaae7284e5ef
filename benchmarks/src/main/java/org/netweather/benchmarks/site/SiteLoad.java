package org.netweather.benchmarks.site;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.netweather.client.NetWeatherClient;

/**
 * The site benchmark's simulated sensors as a load on a site someone else runs (testbed/faults and
 * benchmarks/soak start the daemons, each its own process in its own namespace, and break them):
 * {@code --hosts} simulated hosts register, heart-beat, watch their cliques and spool and deliver
 * through the sensor's own Spool and Delivery at real rate (0.95 measurements/s per host), until
 * {@code --stop-file} exists. Then the spools drain and {@link SiteVerifier} checks that every
 * acknowledged measurement is stored exactly once.
 *
 * <p>{@code --nameserver} takes a list ({@code ns1:8090,ns2:8090}) as a real sensor does: every
 * simulated host's heartbeats, clique watches and look-ups go to the first nameserver that answers
 * and move on to the next when it dies, so a nameserver killed under the load shows the sensors
 * failing over.
 *
 * <p>Prints a {@code load:} progress line every {@code --report-every} seconds, and at the end one
 * line {@code load: exactly-once yes|NO acknowledged A stored S missing M duplicated D ...}. Exit 0
 * when exactly once with nothing left spooled or dropped, 1 otherwise, 2 on bad options.
 *
 * <pre>
 *   benchmarks/run site.SiteLoad --nameserver 198.18.0.1:8090 --stop-file /tmp/stop
 *   benchmarks/run site.SiteLoad --nameserver 198.18.0.14:8090,198.18.0.15:8090 --ttl 15 ...
 * </pre>
 */
public final class SiteLoad {
  private static final String USAGE =
      """
      usage: benchmarks/run site.SiteLoad --nameserver HOST:PORT[,HOST:PORT...] --stop-file FILE
                                  [OPTION VALUE]...
        --hosts N            simulated hosts, 0.95 measurements/s each (200)
        --ttl S              each host's lease TTL; it heart-beats every third of it (180)
        --cluster-hosts N    hosts per cluster attribute (64)
        --report-every S     seconds between progress lines (10)
        --drain-seconds S    longest wait for the spools to empty after the stop (300)
        --verify-sample N    series read back point by point at the end (100)
        --spool-dir DIR      the spools (a new temporary directory)
        --seed N             seed of values and phases (1)
      """;

  private SiteLoad() {}

  public static void main(String[] args) throws Exception {
    if (System.getenv("NWS_LOG_LEVEL") == null) {
      System.setProperty("NWS_LOG_LEVEL", "WARN");
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        System.err.println("site load: expected --name value at '" + args[i] + "'");
        System.err.print(USAGE);
        System.exit(2);
      }
      m.put(args[i].substring(2), args[++i]);
    }
    String nameserver = m.remove("nameserver");
    String stop = m.remove("stop-file");
    if (nameserver == null || stop == null) {
      System.err.println("site load: --nameserver and --stop-file are required");
      System.err.print(USAGE);
      System.exit(2);
      return;
    }
    int hosts = Integer.parseInt(m.getOrDefault("hosts", "200"));
    int reportEvery = Integer.parseInt(m.getOrDefault("report-every", "10"));
    int drainSeconds = Integer.parseInt(m.getOrDefault("drain-seconds", "300"));
    int sample = Integer.parseInt(m.getOrDefault("verify-sample", "100"));
    Path spools =
        m.containsKey("spool-dir")
            ? Path.of(m.get("spool-dir"))
            : Files.createTempDirectory("nws-load-spools");
    // A light site: a few spools and connections stand for every host (as in the benchmark).
    SiteOptions options =
        SiteOptions.parse(
            new String[] {
              "--hosts", String.valueOf(hosts),
              "--spools", String.valueOf(Math.min(hosts, 8)),
              "--connections", String.valueOf(Math.min(hosts, 4)),
              "--threads", "4",
              "--cluster-hosts", m.getOrDefault("cluster-hosts", "64"),
              "--ttl", m.getOrDefault("ttl", "180"),
              "--seed", m.getOrDefault("seed", "1"),
              "--dir", spools.toString(),
              "--spool-dir", spools.toString()
            });
    System.exit(run(options, nameserver, Path.of(stop), reportEvery, drainSeconds, sample));
  }

  private static int run(
      SiteOptions options,
      String nameserver,
      Path stop,
      int reportEvery,
      int drainSeconds,
      int sampleSize)
      throws Exception {
    SitePlan plan = new SitePlan(options.hosts(), options.cliqueSize(), options.clusterHosts());
    Random random = new Random(options.seed());
    List<Integer> sample =
        new ArrayList<>(SiteBenchmark.sample(plan.series().size(), sampleSize, random));
    SimClock clock = new SimClock(System::nanoTime, System.currentTimeMillis(), 1);
    ForecastDelay forecastDelay = new ForecastDelay(plan, List.of(), System::nanoTime);
    AckLedger ledger = new AckLedger(plan, clock, System::nanoTime, sample, forecastDelay);
    ledger.startPhase(Phase.REAL);
    NetWeatherClient admin = SiteBenchmark.adminClient(nameserver);
    SimulatedSite site = new SimulatedSite(options, plan, nameserver, ledger, new CallCounter());
    MeasurementGenerator generator = null;
    Thread generating = null;
    try {
      for (int i = 0; i < plan.cliques().size(); i++) {
        admin.putClique(SiteBenchmark.clique(i, plan.cliques().get(i)));
      }
      site.start(random);
      site.awaitFirstPolls(120_000);
      generator =
          new MeasurementGenerator(
              plan, site, clock, ledger, new ValueModel(options.seed()), random);
      generating = new Thread(generator, "site-load-generator");
      generating.start();
      System.out.printf(
          Locale.ROOT,
          "load: %d simulated hosts, %d series, %.0f measurements/s, spools in %s%n",
          plan.hostCount(),
          plan.series().size(),
          plan.measurementsPerSecond(),
          options.spoolDir());
      long next = System.nanoTime();
      while (!Files.exists(stop)) {
        if (System.nanoTime() >= next) {
          progress("running", ledger, site);
          next = System.nanoTime() + reportEvery * 1_000_000_000L;
        }
        Thread.sleep(200);
      }
      generator.stop();
      generating.join();
      ledger.startPhase(Phase.DRAIN);
      long drainEnd = System.nanoTime() + drainSeconds * 1_000_000_000L;
      next = System.nanoTime();
      while (site.pending() > 0 && System.nanoTime() < drainEnd) {
        if (System.nanoTime() >= next) {
          progress("draining", ledger, site);
          next = System.nanoTime() + reportEvery * 1_000_000_000L;
        }
        Thread.sleep(200);
      }
      ledger.endPhases();
      progress("drained", ledger, site);
      SiteVerifier.Result r =
          new SiteVerifier(plan, ledger, new ValueModel(options.seed()), admin).verify(sample);
      long pending = site.pending();
      long dropped = site.dropped();
      // Duplicated: a count above what was acknowledged, or a timestamp stored twice.
      boolean ok = r.exactlyOnce() && pending == 0 && dropped == 0 && r.unknownSeries() == 0;
      System.out.printf(
          Locale.ROOT,
          "load: exactly-once %s acknowledged %d stored %d missing-series %d count-mismatches %d"
              + " sample %d series %d points missing %d extra %d duplicated %d wrong %d;"
              + " pending %d dropped %d offered %d%n",
          ok ? "yes" : "NO",
          ledger.totalAcked(),
          r.pointsStored(),
          r.seriesMissing(),
          r.countMismatches(),
          r.sampleSeries(),
          r.samplePoints(),
          r.sampleMissing(),
          r.sampleExtra(),
          r.sampleDuplicates(),
          r.sampleWrongValues(),
          pending,
          dropped,
          ledger.offered());
      System.out.println("load: " + ledger.books());
      r.examples().forEach(e -> System.out.println("load:   " + e));
      return ok ? 0 : 1;
    } finally {
      if (generator != null) {
        generator.stop();
        generating.join();
      }
      site.close();
      admin.close();
    }
  }

  private static void progress(String what, AckLedger ledger, SimulatedSite site) {
    System.out.printf(
        Locale.ROOT,
        "load: %s offered %d acknowledged %d pending %d dropped %d%n",
        what,
        ledger.offered(),
        ledger.totalAcked(),
        site.pending(),
        site.dropped());
    System.out.flush();
  }
}
