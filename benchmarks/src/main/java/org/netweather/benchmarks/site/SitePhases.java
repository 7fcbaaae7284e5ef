package org.netweather.benchmarks.site;

import java.time.Duration;
import java.util.Locale;
import org.netweather.client.NetWeatherClient;

/**
 * Runs the benchmark's phases on a site that is already generating: fill, real rate, the two
 * restarts under load, drain. Each hands its figures to the {@link SiteReport}.
 */
final class SitePhases {
  private final SiteOptions options;
  private final SitePlan plan;
  private final SimulatedSite site;
  private final AckLedger ledger;
  private final ForecastDelay forecastDelay;
  private final SiteDaemons daemons;
  private final NetWeatherClient admin;
  private final SiteReport report;
  private final long startNanos = System.nanoTime();

  SitePhases(SiteOptions options, SitePlan plan, SimulatedSite site, AckLedger ledger,
      ForecastDelay forecastDelay, SiteDaemons daemons, NetWeatherClient admin,
      SiteReport report) {
    this.options = options;
    this.plan = plan;
    this.site = site;
    this.ledger = ledger;
    this.forecastDelay = forecastDelay;
    this.daemons = daemons;
    this.admin = admin;
    this.report = report;
  }

  /** The backlog that counts as cleared: one second of output at {@code rate}, or 50. */
  private long clearedBelow(double rate) {
    return Math.max(50, (long) (plan.measurementsPerSecond() * rate));
  }

  void fill(SimClock clock) throws InterruptedException {
    long start = System.nanoTime();
    long minEnd = start + (long) (2e6 * SitePlan.CLIQUE_PERIOD_MS / options.fillRate());
    long deadline = start + options.fillMaxSeconds() * 1_000_000_000L;
    long threshold = clearedBelow(options.fillRate());
    long nextPrint = start;
    boolean done = false;
    while (!done) {
      Thread.sleep(1_000);
      long now = System.nanoTime();
      long series = ledger.seriesAcked();
      long pending = site.pending();
      if (now >= nextPrint) {
        progress("fill");
        nextPrint = now + 5_000_000_000L;
      }
      done = series == plan.series().size() && pending <= threshold && now >= minEnd;
      if (!done && now > deadline) {
        System.out.printf("fill did not finish in %d s: %d of %d series, %d spooled%n",
            options.fillMaxSeconds(), series, plan.series().size(), pending);
        break;
      }
    }
    report.fill((System.nanoTime() - start) / 1e9, done, ledger.offered());
  }

  void real(SimClock clock) throws Exception {
    clock.setRate(1);
    ledger.startPhase(Phase.REAL);
    forecastDelay.start(admin, site.scheduler());
    report.realStarted();
    long end = System.nanoTime() + options.realSeconds() * 1_000_000_000L;
    while (System.nanoTime() < end) {
      Thread.sleep(Math.min(10_000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
      progress("real");
    }
    report.realEnded();
  }

  void restartMemoryHost() throws Exception {
    ledger.startPhase(Phase.MEMORY_RESTART);
    DaemonProcess d = daemons.memory;
    long kill = System.nanoTime();
    ledger.mark(kill);
    d.kill();
    long spawn = System.nanoTime();
    d.start();
    long serving = SiteDaemons.awaitServing(d, Duration.ofMinutes(5));
    SiteDaemons.await("the first ack after the restart", Duration.ofMinutes(5),
        () -> ledger.firstAckAfterMark() > 0);
    long threshold = clearedBelow(1);
    long cleared = awaitBacklogBelow(threshold, Duration.ofSeconds(options.afterRestartSeconds()
        + 300));
    report.restart(new SiteReport.Restart(d.label, kill, spawn, serving,
        ledger.firstAckAfterMark(), "first ack", cleared));
    holdUntil(kill, "memory-host restart");
  }

  void restartForecaster() throws Exception {
    ledger.startPhase(Phase.FORECASTER_RESTART);
    DaemonProcess d = daemons.forecaster;
    long kill = System.nanoTime();
    forecastDelay.mark(kill);
    d.kill();
    long spawn = System.nanoTime();
    d.start();
    long serving = SiteDaemons.awaitServing(d, Duration.ofMinutes(5));
    SiteDaemons.await("the first forecast after the restart", Duration.ofMinutes(5),
        () -> forecastDelay.firstUpdateAfterMark() > 0);
    report.restart(new SiteReport.Restart(d.label, kill, spawn, serving,
        forecastDelay.firstUpdateAfterMark(), "first forecast", 0));
    holdUntil(kill, "forecaster restart");
  }

  void drain() throws InterruptedException {
    ledger.startPhase(Phase.DRAIN);
    long start = System.nanoTime();
    awaitBacklogBelow(1, Duration.ofMinutes(10));
    long drained = System.nanoTime();
    try {
      SiteDaemons.await("forecasts of the followed series", Duration.ofSeconds(60),
          () -> forecastDelay.unseen() == 0);
    } catch (IllegalStateException e) {
      System.out.println("warning: " + forecastDelay.unseen()
          + " acknowledged measurements of the followed series never reached a forecast");
    }
    System.out.printf(Locale.ROOT, "drained the spools in %.1f s (%d left)%n",
        (drained - start) / 1e9, site.pending());
  }

  /** Waits until the spools hold fewer than {@code threshold}; returns when, or 0 if never. */
  private long awaitBacklogBelow(long threshold, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (site.pending() >= threshold) {
      if (System.nanoTime() > deadline) {
        return 0;
      }
      Thread.sleep(100);
    }
    return System.nanoTime();
  }

  private void holdUntil(long since, String phase) throws InterruptedException {
    long end = since + options.afterRestartSeconds() * 1_000_000_000L;
    while (System.nanoTime() < end) {
      Thread.sleep(Math.min(10_000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
      progress(phase);
    }
  }

  private void progress(String phase) {
    System.out.printf(Locale.ROOT, "[%6.1f s] %-20s offered %d, acknowledged %d, series %d/%d,"
        + " spooled %d%n", (System.nanoTime() - startNanos) / 1e9, phase, ledger.offered(),
        ledger.totalAcked(), ledger.seriesAcked(), plan.series().size(), site.pending());
  }
}
