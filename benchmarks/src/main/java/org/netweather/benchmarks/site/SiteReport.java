package org.netweather.benchmarks.site;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.netweather.model.shard.Rendezvous;
import org.netweather.model.shard.Shards;

/** Collects the figures of a run as its phases go, and prints them as tables at the end. */
final class SiteReport {
  private static final String SELF = "sensors (this JVM)";

  /** A daemon's SIGKILL and restart, System.nanoTime() instants; 0 for never. */
  record Restart(
      String daemon,
      long killed,
      long spawned,
      long serving,
      long firstWork,
      String firstWorkLabel,
      long backlogCleared) {}

  private final SitePlan plan;
  private final SiteDaemons daemons;
  private final AckLedger ledger;
  private final ForecastDelay forecastDelay;
  private final CallCounter calls;
  private final Map<String, ProcSample> realStart = new LinkedHashMap<>();
  private final Map<String, ProcSample> realEnd = new LinkedHashMap<>();
  private final Map<String, Long> diskAfterReal = new LinkedHashMap<>();
  private final Map<String, Long> diskFinal = new LinkedHashMap<>();
  private final List<Restart> restarts = new ArrayList<>();
  private Map<String, Long> callsStart;
  private Map<String, Long> callsEnd;
  private long ackedAtRealStart;
  private long ackedAtRealEnd;
  private Fill fill;
  private long spoolDropped;
  private SiteVerifier.Result verified;

  SiteReport(
      SitePlan plan,
      SiteDaemons daemons,
      AckLedger ledger,
      ForecastDelay forecastDelay,
      CallCounter calls) {
    this.plan = plan;
    this.daemons = daemons;
    this.ledger = ledger;
    this.forecastDelay = forecastDelay;
    this.calls = calls;
  }

  /**
   * The fill: real and simulated seconds at the fill rate, whether every series then existed, the
   * measurements it produced, how many of them were not yet acknowledged when the rate dropped to
   * real rate, seconds from then until the spools held less than one delivery (and how many were
   * acknowledged meanwhile) and until the forecaster had caught up; -1 where never.
   */
  record Fill(
      double offerSeconds,
      double simSeconds,
      boolean everySeries,
      long produced,
      long backlog,
      double spoolsClearedSeconds,
      long ackedWhileClearing,
      double caughtUpSeconds) {}

  void fill(Fill f) {
    fill = f;
  }

  void realStarted() {
    sampleAll(realStart);
    callsStart = calls.snapshot();
    ackedAtRealStart = ledger.totalAcked();
  }

  void realEnded() {
    sampleAll(realEnd);
    callsEnd = calls.snapshot();
    ackedAtRealEnd = ledger.totalAcked();
    disk(diskAfterReal);
  }

  /**
   * A forecaster killed and left down while the others took its shards: when every followed series
   * had been forecast again (System.nanoTime(), 0 if never).
   */
  record Takeover(String daemon, long killed, long everyForecast, int followed) {}

  private final List<Takeover> takeovers = new ArrayList<>();

  /**
   * Series each forecaster holds while all are up: those of the shards it owns by rendezvous over
   * the forecasters' names, as the forecasters compute it themselves (each follows only those).
   */
  private Map<String, Long> seriesHeld() {
    Map<String, String> byName = new LinkedHashMap<>();
    for (DaemonProcess d : daemons.forecasters) {
      byName.put(SiteDaemons.forecasterName(d), d.label);
    }
    Map<String, Long> held = new LinkedHashMap<>();
    byName.values().forEach(label -> held.put(label, 0L));
    for (String s : plan.series()) {
      String owner = Rendezvous.owner(Shards.of(s), byName.keySet()).orElseThrow();
      held.merge(byName.get(owner), 1L, Long::sum);
    }
    return held;
  }

  void takeover(Takeover t) {
    takeovers.add(t);
  }

  void restart(Restart r) {
    restarts.add(r);
    System.out.printf(
        Locale.ROOT,
        "%s restarted: SERVING %.2f s after its start, %s %s%n",
        r.daemon,
        (r.serving - r.spawned) / 1e9,
        r.firstWorkLabel,
        after(r.firstWork, r));
  }

  void finalDisk() {
    disk(diskFinal);
  }

  void sensors(long dropped) {
    spoolDropped = dropped;
  }

  void verified(SiteVerifier.Result r) {
    verified = r;
  }

  private void printFill(PrintStream out, SiteOptions o, Map<Phase, PhaseStats> phases) {
    double real = plan.measurementsPerSecond();
    PhaseStats offering = phases.get(Phase.FILL);
    double offerRate = offering.acked / offering.seconds();
    out.printf(
        Locale.ROOT,
        "fill at %.0fx: %.0f s of simulated time in %.1f s, %s; %d measurements produced,"
            + " acknowledged at %.0f/s (%.1fx real rate) meanwhile%n",
        o.fillRate(),
        fill.simSeconds(),
        fill.offerSeconds(),
        fill.everySeries() ? "every series exists" : "NOT EVERY SERIES EXISTS",
        fill.produced(),
        offerRate,
        offerRate / real);
    if (fill.spoolsClearedSeconds() < 0) {
      out.printf("  its backlog was NOT CLEARED within --fill-max%n");
      return;
    }
    double clearRate = fill.ackedWhileClearing() / Math.max(1e-3, fill.spoolsClearedSeconds());
    out.printf(
        Locale.ROOT,
        "  backlog at the drop to 1x: %d; spools cleared %.1f s later (acknowledged at %.0f/s,"
            + " %.1fx real rate), forecasts caught up %s%n",
        fill.backlog(),
        fill.spoolsClearedSeconds(),
        clearRate,
        clearRate / real,
        fill.caughtUpSeconds() < 0
            ? "NEVER within --fill-max"
            : String.format(Locale.ROOT, "%.1f s later", fill.caughtUpSeconds()));
  }

  private void sampleAll(Map<String, ProcSample> into) {
    for (DaemonProcess d : daemons.all()) {
      into.put(d.label, d.sample());
    }
    into.put(SELF, ProcSample.of(ProcessHandle.current().pid()));
  }

  private void disk(Map<String, Long> into) {
    try {
      for (DaemonProcess d : daemons.all()) {
        into.put(d.label, d.diskBytes());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  void print(PrintStream out, SiteOptions o) {
    Map<Phase, PhaseStats> phases = ledger.phases();
    PhaseStats real = phases.get(Phase.REAL);
    long ackedReal = ackedAtRealEnd - ackedAtRealStart;
    int series = plan.series().size();
    out.println();
    out.printf(
        Locale.ROOT,
        "== site of %d hosts: %d series, %.0f measurements/s at real rate "
            + "(spools %d, connections %d, delivery every %d ms per sensor %s, peer search %s) ==%n",
        plan.hostCount(),
        series,
        plan.measurementsPerSecond(),
        o.spools(),
        o.connections(),
        o.deliveryMs(),
        o.appendStreams() ? "on append streams" : "in Append calls",
        o.peerSearch());
    printFill(out, o, phases);

    out.printf(
        Locale.ROOT,
        "%n-- daemons over the real-rate phase (%.0f s, %d measurements "
            + "acknowledged, %.1f/s) --%n",
        real.seconds(),
        ackedReal,
        ackedReal / real.seconds());
    List<String> cols = new ArrayList<>(realEnd.keySet());
    row(out, "", cols, c -> c);
    row(
        out,
        "pid",
        cols,
        c -> c.equals(SELF) ? "" + ProcessHandle.current().pid() : "" + byLabel(c).pid());
    row(out, "CPU, cores", cols, c -> f2(realEnd.get(c).coresSince(realStart.get(c))));
    row(
        out,
        "CPU us per measurement",
        cols,
        c -> f1((double) realEnd.get(c).cpuSince(realStart.get(c)) / Math.max(1, ackedReal)));
    row(out, "RSS MiB", cols, c -> f1(realEnd.get(c).rssBytes() / 1048576.0));
    Map<String, Long> held = seriesHeld();
    if (daemons.forecasters.size() > 1) {
      row(
          out,
          "series held (shards owned)",
          cols,
          c -> held.containsKey(c) ? "" + held.get(c) : "");
    }
    row(
        out,
        "RSS KiB per series",
        cols,
        c ->
            c.equals(daemons.memory.label) || held.containsKey(c)
                ? f2(
                    realEnd.get(c).rssBytes()
                        / 1024.0
                        / Math.max(1, held.getOrDefault(c, (long) series)))
                : "");
    row(out, "descriptors", cols, c -> "" + realEnd.get(c).descriptors());
    row(out, "disk MiB (end of real rate)", cols, c -> mib(diskAfterReal.get(c)));
    row(out, "disk MiB (end)", cols, c -> mib(diskFinal.get(c)));
    long points = verified == null ? 0 : verified.pointsStored();
    row(
        out,
        "disk bytes per point (end)",
        cols,
        c ->
            c.equals(daemons.memory.label)
                ? f2((double) diskFinal.get(c) / Math.max(1, points))
                : "");
    row(
        out,
        "disk bytes per series (end)",
        cols,
        c -> has(diskFinal.get(c)) ? f1((double) diskFinal.get(c) / series) : "");
    for (Takeover t : takeovers) {
      out.printf(
          Locale.ROOT,
          "%s SIGKILLed and left down: every one of %d followed series forecast by the other"
              + " forecasters %s%n",
          t.daemon,
          t.followed,
          t.everyForecast == 0
              ? "NEVER within two minutes"
              : String.format(
                  Locale.ROOT, "%.1f s after the kill", (t.everyForecast - t.killed) / 1e9));
    }
    for (Restart r : restarts) {
      out.printf(
          Locale.ROOT,
          "%s restart (SIGKILL, then bin/nws): SERVING %.2f s after start "
              + "(%.2f s after the kill), %s %s%s%n",
          r.daemon,
          (r.serving - r.spawned) / 1e9,
          (r.serving - r.killed) / 1e9,
          r.firstWorkLabel,
          after(r.firstWork, r),
          r.daemon.equals(daemons.memory.label)
              ? ", backlog cleared " + after(r.backlogCleared, r)
              : "");
    }

    double secs = real.seconds();
    long nsCalls = 0;
    StringBuilder rates = new StringBuilder();
    for (Map.Entry<String, Long> e : callsEnd.entrySet()) {
      long n = e.getValue() - callsStart.getOrDefault(e.getKey(), 0L);
      if (n > 0 && !e.getKey().equals("Append")) {
        nsCalls += n;
        rates.append(String.format(Locale.ROOT, " %s %.1f/s,", e.getKey(), n / secs));
      }
    }
    String ns = daemons.nameserver.label;
    long nsCpu = realEnd.get(ns).cpuSince(realStart.get(ns));
    out.printf(
        Locale.ROOT,
        "nameserver: sensors' calls%s %.1f/s in all; %.3f cores, %.1f us " + "CPU per call%n",
        rates,
        nsCalls / secs,
        realEnd.get(ns).coresSince(realStart.get(ns)),
        (double) nsCpu / Math.max(1, nsCalls));

    out.printf(
        Locale.ROOT,
        "%n-- acks (memory-host) and forecasts (forecaster) by phase; "
            + "ack latency from the instant a measurement was due, call = Append round trip --%n");
    out.printf(
        "%-20s %6s %8s %8s %9s %9s %9s %9s %9s %9s %6s | %9s %9s %9s %5s%n",
        "phase",
        "secs",
        "acked",
        "acked/s",
        "ack p50",
        "ack p99",
        "ack max",
        "call p50",
        "call p99",
        "ack gap",
        "failed",
        "fcst p50",
        "fcst p99",
        "fcst max",
        "n");
    Map<Phase, LatencyHistogram> delays = forecastDelay.delays();
    for (Map.Entry<Phase, PhaseStats> e : phases.entrySet()) {
      PhaseStats p = e.getValue();
      LatencyHistogram f = delays.getOrDefault(e.getKey(), new LatencyHistogram());
      out.printf(
          Locale.ROOT,
          "%-20s %6.1f %8d %8.1f %9s %9s %9s %9s %9s %9s %6d | %9s %9s %9s %5d%n",
          e.getKey().label,
          p.seconds(),
          p.acked,
          p.acked / p.seconds(),
          ms(p.ack.percentileMicros(50)),
          ms(p.ack.percentileMicros(99)),
          ms(p.ack.maxMicros()),
          ms(p.call.percentileMicros(50)),
          ms(p.call.percentileMicros(99)),
          ms(p.longestGapNanos / 1000),
          p.failedCalls,
          ms(f.percentileMicros(50)),
          ms(f.percentileMicros(99)),
          ms(f.maxMicros()),
          f.count());
    }
    out.printf(
        "(forecast delay over %d followed series; %d updates received)%n",
        forecastDelay.size(), forecastDelay.updates());

    out.printf(Locale.ROOT, "%n-- measurements --%n");
    out.printf(
        Locale.ROOT,
        "memory-host: offered %d, acknowledged %d, stored %d (ListSeries), "
            + "dropped by full spools %d%n",
        ledger.offered(),
        ledger.totalAcked(),
        points,
        spoolDropped);
    out.printf("  %s%n", ledger.books());
    if (verified != null) {
      SiteVerifier.Result v = verified;
      out.printf(
          Locale.ROOT,
          "forecaster: %d of %d series have a forecast; %d measurements "
              + "seen since its restart%n",
          v.forecastSeries(),
          series,
          v.forecastCount());
      out.printf(
          Locale.ROOT,
          "%n-- verification: %s --%n",
          v.exactlyOnce() ? "every acknowledged measurement stored exactly once" : "FAILED");
      out.printf(
          Locale.ROOT,
          "counts: %d series stored, %d acknowledged series missing, %d "
              + "counts differing from the acknowledged, %d series stored but never sent%n",
          v.seriesStored(),
          v.seriesMissing(),
          v.countMismatches(),
          v.unknownSeries());
      out.printf(
          Locale.ROOT,
          "read back %d series fully (%d acknowledged points): %d missing, "
              + "%d extra, %d duplicated, %d wrong values%n",
          v.sampleSeries(),
          v.samplePoints(),
          v.sampleMissing(),
          v.sampleExtra(),
          v.sampleDuplicates(),
          v.sampleWrongValues());
      v.examples().forEach(x -> out.println("  " + x));
    }
  }

  private static String after(long instant, Restart r) {
    return instant == 0
        ? "NEVER (within the wait)"
        : String.format(Locale.ROOT, "%.2f s after start", (instant - r.spawned) / 1e9);
  }

  private DaemonProcess byLabel(String label) {
    return daemons.all().stream().filter(d -> d.label.equals(label)).findFirst().orElseThrow();
  }

  private static void row(
      PrintStream out, String name, List<String> cols, Function<String, String> cell) {
    StringBuilder b = new StringBuilder(String.format("%-30s", name));
    for (String c : cols) {
      String v;
      try {
        v = cell.apply(c);
      } catch (RuntimeException e) {
        v = "";
      }
      b.append(String.format(" %19s", v));
    }
    out.println(b.toString().stripTrailing());
  }

  private static boolean has(Long bytes) {
    return bytes != null && bytes >= 0;
  }

  private static String mib(Long bytes) {
    return has(bytes) ? f2(bytes / 1048576.0) : "";
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  private static String ms(long micros) {
    return String.format(Locale.ROOT, "%.1f ms", micros / 1000.0);
  }
}
