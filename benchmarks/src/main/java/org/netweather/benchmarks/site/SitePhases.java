package org.netweather.benchmarks.site;

import java.time.Duration;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
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
  private long nextPrint = startNanos;

  SitePhases(
      SiteOptions options,
      SitePlan plan,
      SimulatedSite site,
      AckLedger ledger,
      ForecastDelay forecastDelay,
      SiteDaemons daemons,
      NetWeatherClient admin,
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

  /**
   * The backlog that counts as cleared: what the sensors produce at real rate in one delivery
   * period (which they hold back by design) and one second more, or 50.
   */
  private long clearedBelow() {
    double seconds = options.deliveryMs() / 1000.0 + 1;
    return Math.max(50, (long) (plan.measurementsPerSecond() * seconds));
  }

  /**
   * Offers measurements at the fill rate until every series exists and two clique periods of
   * simulated time have passed, then at real rate until the backlog the fill left is delivered and
   * the forecaster has caught up. A site that cannot take the fill rate absorbs what it can while
   * the rest waits in the spools, as a real site's sensors hold a backlog after an outage; what the
   * fill left and how long the memory-host and the forecaster took to clear it are reported.
   *
   * @param producedThroughMs the simulated instant up to which the generator has spooled
   */
  void fill(SimClock clock, LongSupplier producedThroughMs) throws InterruptedException {
    forecastDelay.start(admin, site.scheduler());
    long start = System.nanoTime();
    long simStart = clock.nowMs();
    long minEnd = start + (long) (2e6 * SitePlan.CLIQUE_PERIOD_MS / options.fillRate());
    long deadline = start + options.fillMaxSeconds() * 1_000_000_000L;
    boolean everySeries =
        awaitUntil(
                () -> ledger.seriesAcked() == plan.series().size() && System.nanoTime() >= minEnd,
                deadline,
                "fill")
            > 0;
    clock.setRate(1);
    ledger.startPhase(Phase.FILL_BACKLOG);
    long switched = System.nanoTime();
    long simEnd = clock.nowMs();
    long ackedAtSwitch = ledger.totalAcked();
    // The simulated sensors may still be producing the fill's last simulated seconds (they share
    // these two cores): the backlog is what the fill produced and was not yet acknowledged.
    long[] produced = {-1};
    long threshold = clearedBelow();
    long spoolsCleared =
        !everySeries
            ? 0
            : awaitUntil(
                () -> {
                  if (produced[0] < 0 && producedThroughMs.getAsLong() >= simEnd) {
                    produced[0] = ledger.offered();
                  }
                  return produced[0] >= 0 && site.pending() <= threshold;
                },
                deadline,
                "fill backlog");
    long ackedWhileClearing = ledger.totalAcked() - ackedAtSwitch;
    // Caught up when nothing followed has waited a second for the forecaster.
    long caughtUp =
        spoolsCleared == 0
            ? 0
            : awaitUntil(
                () -> forecastDelay.oldestUnseenNanos(System.nanoTime()) < 1_000_000_000L,
                deadline,
                "fill backlog");
    if (caughtUp == 0) {
      System.out.printf(
          Locale.ROOT,
          "fill did not finish in %d s: %d of %d series, %d spooled, forecasts %.1f s behind%n",
          options.fillMaxSeconds(),
          ledger.seriesAcked(),
          plan.series().size(),
          site.pending(),
          forecastDelay.oldestUnseenNanos(System.nanoTime()) / 1e9);
    }
    report.fill(
        new SiteReport.Fill(
            (switched - start) / 1e9,
            (simEnd - simStart) / 1000.0,
            everySeries,
            produced[0],
            produced[0] < 0 ? -1 : produced[0] - ackedAtSwitch,
            spoolsCleared == 0 ? -1 : (spoolsCleared - switched) / 1e9,
            ackedWhileClearing,
            caughtUp == 0 ? -1 : (caughtUp - switched) / 1e9));
  }

  void real(SimClock clock) throws Exception {
    clock.setRate(1);
    // For about five minutes after a start the memory-host's cost per measurement is a third
    // higher than it stays: its C2 compiler is still at work, its heap is touched for the first
    // time (page faults) and its archives fold the fill's backlog. Let that pass so the measured
    // window shows the steady cost per measurement.
    ledger.startPhase(Phase.SETTLE);
    long settled = System.nanoTime() + options.settleSeconds() * 1_000_000_000L;
    while (System.nanoTime() < settled) {
      Thread.sleep(Math.min(10_000, Math.max(1, (settled - System.nanoTime()) / 1_000_000)));
      progress("settle");
    }
    ledger.startPhase(Phase.REAL);
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
    d.kill();
    long spawn = System.nanoTime();
    // Only the new process can ack from here on (the old one is gone: kill waited for it).
    ledger.mark(spawn);
    d.start();
    long serving = SiteDaemons.awaitServing(d, Duration.ofMinutes(5));
    long firstAck = awaitInstant("the first ack after the restart", ledger::firstAckAfterMark);
    long cleared =
        awaitBacklogBelow(clearedBelow(), Duration.ofSeconds(options.afterRestartSeconds() + 120));
    report.restart(
        new SiteReport.Restart(d.label, kill, spawn, serving, firstAck, "first ack", cleared));
    holdUntil(kill, "memory-host restart");
  }

  /** A daemon the benchmark killed and leaves down for now (progress does not count it dead). */
  private DaemonProcess leftDown;

  void restartForecaster() throws Exception {
    boolean shared = daemons.forecasters.size() > 1;
    ledger.startPhase(shared ? Phase.FORECASTER_KILL : Phase.FORECASTER_RESTART);
    DaemonProcess d = daemons.forecaster;
    long kill = System.nanoTime();
    d.kill();
    long spawn = System.nanoTime();
    forecastDelay.mark(spawn);
    if (shared) {
      // The others take its shards over (once its registry session has ended): how long until
      // every followed series is forecast again, before it is started again. The phase's
      // forecast delays are those of this window.
      leftDown = d;
      long every =
          awaitInstant(
              "every followed series forecast by the other forecasters",
              forecastDelay::everyUpdatedAfterMark);
      report.takeover(new SiteReport.Takeover(d.label, kill, every, forecastDelay.size()));
      if (!options.restartForecaster()) {
        // Left down for good: a site whose survivors hold its share cannot also hold the
        // restarted one's warm-up on a machine this size.
        holdUntil(System.nanoTime(), "forecaster left down");
        return;
      }
      leftDown = null;
      ledger.startPhase(Phase.FORECASTER_RESTART);
      spawn = System.nanoTime();
      forecastDelay.mark(spawn);
    }
    d.start();
    long serving = SiteDaemons.awaitServing(d, Duration.ofMinutes(5));
    long first =
        awaitInstant("the first forecast after the restart", forecastDelay::firstUpdateAfterMark);
    report.restart(
        new SiteReport.Restart(d.label, kill, spawn, serving, first, "first forecast", 0));
    holdUntil(kill, "forecaster restart");
  }

  /** Waits up to two minutes for {@code instant} to be set, printing progress; 0 if never. */
  private long awaitInstant(String what, LongSupplier instant) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    long nextPrint = System.nanoTime() + 10_000_000_000L;
    while (instant.getAsLong() == 0) {
      if (System.nanoTime() > deadline) {
        System.out.println("no " + what + " within two minutes; going on");
        return 0;
      }
      if (System.nanoTime() > nextPrint) {
        progress("waiting for " + what);
        nextPrint += 10_000_000_000L;
      }
      Thread.sleep(20);
    }
    return instant.getAsLong();
  }

  void drain() throws InterruptedException {
    ledger.startPhase(Phase.DRAIN);
    long start = System.nanoTime();
    awaitBacklogBelow(1, Duration.ofMinutes(10));
    long drained = System.nanoTime();
    try {
      SiteDaemons.await(
          "forecasts of the followed series",
          Duration.ofSeconds(60),
          () -> forecastDelay.unseen() == 0);
    } catch (IllegalStateException e) {
      System.out.println(
          "warning: "
              + forecastDelay.unseen()
              + " acknowledged measurements of the followed series never reached a forecast");
    }
    System.out.printf(
        Locale.ROOT,
        "drained the spools in %.1f s (%d left)%n",
        (drained - start) / 1e9,
        site.pending());
  }

  /** Waits until the spools hold fewer than {@code threshold}; returns when, or 0 if never. */
  private long awaitBacklogBelow(long threshold, Duration timeout) throws InterruptedException {
    return awaitUntil(
        () -> site.pending() < threshold, System.nanoTime() + timeout.toNanos(), null);
  }

  /**
   * Checks {@code done} every 100 ms until it holds or {@code deadline} ({@link System#nanoTime()})
   * passes, printing progress every 5 s under {@code phase} unless null; returns when it held, or 0
   * if it never did.
   */
  private long awaitUntil(BooleanSupplier done, long deadline, String phase)
      throws InterruptedException {
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return 0;
      }
      if (phase != null) {
        progress(phase, 5);
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

  /** Prints progress if the last print was {@code everySeconds} ago or more. */
  private void progress(String phase, int everySeconds) {
    long now = System.nanoTime();
    if (now >= nextPrint) {
      progress(phase);
      nextPrint = now + everySeconds * 1_000_000_000L;
    }
  }

  private void progress(String phase) {
    for (DaemonProcess d : daemons.all()) {
      if (!d.alive() && d != leftDown) {
        // Not the benchmark's doing (its kills are followed at once by a start): say so.
        throw new IllegalStateException(
            d.label
                + " exited on its own or was killed from "
                + "outside, status "
                + d.exitStatus()
                + "; see "
                + d.log());
      }
    }
    long now = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "[%6.1f s] %-20s offered %d, acknowledged %d, series %d/%d,"
            + " spooled %d, forecasts %.1f s behind%n",
        (now - startNanos) / 1e9,
        phase,
        ledger.offered(),
        ledger.totalAcked(),
        ledger.seriesAcked(),
        plan.series().size(),
        site.pending(),
        forecastDelay.oldestUnseenNanos(now) / 1e9);
  }
}
