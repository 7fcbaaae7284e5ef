package org.netweather.benchmarks.site;

import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.netweather.api.v1.Clique;
import org.netweather.client.NetWeatherClient;

/**
 * A whole site on this machine: N simulated hosts' sensors in this process against a nameserver, a
 * memory-host, a forecaster and a proxy, each its own {@code bin/nws} process. Each host registers
 * and heart-beats as a sensor does, polls its cliques, and produces {@code cpu.availability} and
 * {@code memory.free} every 10 s and {@code tcp.latency}, {@code tcp.bandwidth} and {@code
 * tcp.connect} for every ordered pair of its 16-host clique every 60 s (47 series and 0.95
 * measurements/s per host), spooled and delivered by the sensor's own Spool and Delivery. See
 * {@link SimulatedSite} for what is shared between hosts.
 *
 * <p>Phases: fill at 10x real rate (simulated time starts in the past) until every series exists,
 * then real rate until the backlog the fill left in the spools is delivered; real rate for {@code
 * --real} seconds, over which CPU per measurement is taken; SIGKILL of the memory-host and a
 * restart under load; the same for the forecaster; drain; then the check that every acknowledged
 * measurement is stored exactly once ({@link SiteVerifier}). It prints per daemon CPU per
 * measurement, RSS per series, descriptors, disk per point and per series, restart time to serving;
 * per phase measurements acknowledged, ack latency p50/p99/max, the longest time without an ack and
 * the append-to-forecast delay; and the nameserver's calls per second.
 *
 * <pre>
 *   benchmarks/run site.SiteBenchmark --hosts 200
 *   benchmarks/run site.SiteBenchmark --hosts 1000 --real 120
 * </pre>
 *
 * <p>Daemon JVM options come from {@code NWS_JAVA_OPTS}, as for bin/nws; logs and data stay under
 * {@code --dir} with {@code --keep true}.
 *
 * <p>Results, 2-vCPU VM (ext4), every daemon and the simulated site on the same two cores,
 * 2026-11-26 ({@code --real 120}, settled 300 s; CPU per measurement over the real-rate window;
 * figures vary by up to a third between runs on this shared machine):
 *
 * <pre>
 * --hosts 10000   470 000 series, 9 500/s; the fill at 10x (--fill-max 900) leaves 2.1-2.9
 *                 million measurements behind, acknowledged at 11-18x real rate once every
 *                 series exists: spools empty 13-26 s and forecasts caught up 94-108 s after the
 *                 rate drops (at --fill-rate 2 the fill cleared in 128-208 s); exactly once
 *                 (7.2-10.7 million acknowledged = stored per run; 200 series read back fully).
 *   memory-host   0.14-0.19 core, 14.5-20.4 us per measurement over seven runs (23.4-23.9 with
 *                 --settle 60), 8.5-10.3 KiB RSS per series, 650 descriptors, 20-29 B disk per
 *                 point; restart SERVING 13.6-25.7 s (16.6-23.2 s in runs with --settle 60)
 *   forecaster    0.16-0.21 core, 17.1-22.6 us per measurement, 30.9-31.8 KiB per series;
 *                 restart SERVING 4.1-7.6 s
 *   nameserver    166 heartbeats/s, 0.04 core; append p99 35-50 ms, append-to-forecast
 *                 p99 15-31 ms
 *   per thread (us per measurement): transport 8.2-8.6, writer 4.2-4.8, archives 0.8-1.7,
 *                 RocksDB flushes and compactions 0.4 (1.8-3.5 while blob garbage collection
 *                 was on; it grows for hours, see ArchiveChurnBenchmark), C2 0.2-1.1, watch
 *                 0.5-0.6, head checkpoints 0.3
 * --hosts 1000    (--fill-rate 10) memory-host 0.06 core (65.8 us), forecaster 0.03 core
 *                 (36.5 us); restart SERVING 3.8 s, forecaster 1.7 s; fill cleared in 19.2 s;
 *                 exactly once (655 986)
 * --hosts 200     memory-host 0.06 core (325 us), forecaster 0.04 core (216 us)
 * </pre>
 *
 * <p>At small N the memory-host's cost is fixed costs spread over few measurements; at large N the
 * forecaster's memory is the limit.
 */
public final class SiteBenchmark {
  private final SiteOptions options;
  private final Path home;
  private final SitePlan plan;

  private SiteBenchmark(SiteOptions options, Path home) {
    this.options = options;
    this.home = home;
    this.plan = new SitePlan(options.hosts(), options.cliqueSize(), options.clusterHosts());
  }

  public static void main(String[] args) throws Exception {
    if (System.getenv("NWS_LOG_LEVEL") == null) {
      // Ten thousand sensors' INFO lines (registered, joined) would bury the figures.
      System.setProperty("NWS_LOG_LEVEL", "WARN");
    }
    SiteOptions options;
    try {
      options = SiteOptions.parse(args);
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().isEmpty()) {
        System.err.println("site: " + e.getMessage());
      }
      System.err.print(SiteOptions.USAGE);
      System.exit(2);
      return;
    }
    Path home = Path.of(System.getProperty("netweather.home", ".")).toAbsolutePath();
    new SiteBenchmark(options, home).run();
    System.exit(0);
  }

  private void run() throws Exception {
    System.out.printf(
        Locale.ROOT,
        "site: %d hosts, %d cliques, %d series, %.0f measurements/s "
            + "at real rate; %d cores; data in %s, spools in %s%n",
        plan.hostCount(),
        plan.cliques().size(),
        plan.series().size(),
        plan.measurementsPerSecond(),
        Runtime.getRuntime().availableProcessors(),
        options.dir(),
        options.spoolDir());
    SiteDaemons daemons = new SiteDaemons(home, options.dir(), options);
    NetWeatherClient admin = adminClient(daemons.nameserverList());
    SimulatedSite site = null;
    ForecastDelay forecastDelay = null;
    MeasurementGenerator generator = null;
    Thread generating = null;
    try {
      daemons.start(admin);
      for (int i = 0; i < plan.cliques().size(); i++) {
        admin.putClique(clique(i, plan.cliques().get(i)));
      }
      Random random = new Random(options.seed());
      List<Integer> shuffled = sample(plan.series().size(), plan.series().size(), random);
      List<Integer> verifySample =
          shuffled.subList(0, Math.min(options.verifySample(), shuffled.size()));
      List<Integer> followSample = shuffled.subList(0, Math.min(options.follow(), shuffled.size()));
      // Far enough back that 10x never overtakes the real clock, even if filling takes long.
      long simStart =
          System.currentTimeMillis()
              - (long) (options.fillRate() * options.fillMaxSeconds() * 1000)
              - 600_000;
      SimClock clock = new SimClock(System::nanoTime, simStart, options.fillRate());
      forecastDelay = new ForecastDelay(plan, followSample, System::nanoTime);
      AckLedger ledger = new AckLedger(plan, clock, System::nanoTime, verifySample, forecastDelay);
      CallCounter calls = new CallCounter();
      site = new SimulatedSite(options, plan, daemons.nameserverList(), ledger, calls);
      SiteReport report = new SiteReport(plan, daemons, ledger, forecastDelay, calls);
      long t0 = System.nanoTime();
      site.start(random);
      if (!site.awaitFirstPolls(120_000)) {
        System.out.println("warning: some hosts never heard of their cliques");
      }
      System.out.printf(
          Locale.ROOT,
          "registered %d sensors and heard of their cliques in %.1f s%n",
          plan.hostCount(),
          (System.nanoTime() - t0) / 1e9);
      generator =
          new MeasurementGenerator(
              plan, site, clock, ledger, new ValueModel(options.seed()), random);
      ledger.startPhase(Phase.FILL);
      generating = new Thread(generator, "site-generator");
      generating.start();
      SitePhases phases =
          new SitePhases(options, plan, site, ledger, forecastDelay, daemons, admin, report);
      phases.fill(clock, generator::producedThroughMs);
      phases.real(clock);
      phases.restartMemoryHost();
      phases.restartForecaster();
      generator.stop();
      generating.join();
      phases.drain();
      ledger.endPhases();
      forecastDelay.close();
      System.out.println("verifying ...");
      report.verified(
          new SiteVerifier(plan, ledger, new ValueModel(options.seed()), admin)
              .verify(verifySample));
      report.finalDisk();
      report.sensors(site.dropped());
      report.print(System.out, options);
    } finally {
      if (generator != null) {
        generator.stop();
        generating.join();
      }
      if (forecastDelay != null) {
        forecastDelay.close();
      }
      if (site != null) {
        site.close();
      }
      admin.close();
      daemons.stop();
      if (!options.keep()) {
        deleteTree(options.spoolDir());
        deleteTree(options.dir());
      }
    }
  }

  static List<Integer> sample(int size, int n, Random random) {
    List<Integer> all = new ArrayList<>(IntStream.range(0, size).boxed().toList());
    Collections.shuffle(all, random);
    return all.subList(0, Math.min(n, size));
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  static NetWeatherClient adminClient(String nameserver) {
    // Large answers (ListSeries per hundred hosts, forecasts in chunks) need room.
    return NetWeatherClient.forAddress(nameserver)
        .deadline(Duration.ofSeconds(60))
        .channels(
            a ->
                NettyChannelBuilder.forTarget(a)
                    .usePlaintext()
                    .maxInboundMessageSize(256 << 20)
                    .build())
        .build();
  }

  static Clique clique(int i, List<String> members) {
    return Clique.newBuilder()
        .setName(SitePlan.cliqueName(i))
        .addAllMembers(members)
        .setPeriodSeconds(SitePlan.CLIQUE_PERIOD_MS / 1000)
        .build();
  }
}
