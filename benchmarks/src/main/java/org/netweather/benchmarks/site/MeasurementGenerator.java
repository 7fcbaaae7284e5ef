package org.netweather.benchmarks.site;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import org.netweather.sensor.spool.SpoolRecord;

/**
 * Produces every simulated host's measurements on the simulated clock, the way a sensor's
 * activities and clique token produce them: {@code cpu.availability} and {@code memory.free} every
 * 10 s at a per-host phase; and, once per 60 s clique period, in the host's turn (its place in the
 * clique's token order), {@code tcp.latency}, {@code tcp.bandwidth} and {@code tcp.connect} to each
 * peer its clique poll found, one peer after another. Each reading is spooled as the sensor's
 * Recorder does (all of a spool's readings due in one pass go in one durable append) and its
 * Delivery nudged.
 */
final class MeasurementGenerator implements Runnable {
  private static final int CPU = 0;
  private static final int MEMORY = 1;
  private static final int PAIR = 2;
  private static final long MAX_SLEEP_NANOS = 20_000_000;

  private static final class Timer {
    long due;
    final int host;
    final int kind;

    Timer(long due, int host, int kind) {
      this.due = due;
      this.host = host;
      this.kind = kind;
    }
  }

  private final SitePlan plan;
  private final SimulatedSite site;
  private final SimClock clock;
  private final AckLedger ledger;
  private final ValueModel values;
  private final PriorityQueue<Timer> timers =
      new PriorityQueue<>((a, b) -> Long.compare(a.due, b.due));
  private final int[] nextPeer;
  private final long[] slotStart;
  private final long[] peerStep;
  private final List<List<SpoolRecord>> bySpool = new ArrayList<>();
  private final List<Integer> touched = new ArrayList<>();
  private volatile boolean stopped;
  private volatile long producedThroughMs = Long.MIN_VALUE;

  MeasurementGenerator(
      SitePlan plan,
      SimulatedSite site,
      SimClock clock,
      AckLedger ledger,
      ValueModel values,
      Random random) {
    this.plan = plan;
    this.site = site;
    this.clock = clock;
    this.ledger = ledger;
    this.values = values;
    int n = plan.hostCount();
    nextPeer = new int[n];
    slotStart = new long[n];
    peerStep = new long[n];
    for (int s = 0; s < site.spoolCount(); s++) {
      bySpool.add(new ArrayList<>());
    }
    long start = clock.nowMs();
    for (int h = 0; h < n; h++) {
      long cpu = start + (long) (random.nextDouble() * SitePlan.HOST_PERIOD_MS);
      timers.add(new Timer(cpu, h, CPU));
      timers.add(new Timer(cpu + 50, h, MEMORY));
    }
    for (List<String> clique : plan.cliques()) {
      long turn = SitePlan.CLIQUE_PERIOD_MS / clique.size();
      for (int pos = 0; pos < clique.size(); pos++) {
        int h = hostIndex(clique.get(pos));
        slotStart[h] = start + pos * turn + (long) (random.nextDouble() * 100);
        peerStep[h] = turn / (clique.size() - 1);
        timers.add(new Timer(slotStart[h], h, PAIR));
      }
    }
  }

  /** Host names are {@code h} and the host's index (see {@link SitePlan}). */
  private static int hostIndex(String host) {
    return Integer.parseInt(host.substring(1));
  }

  void stop() {
    stopped = true;
  }

  /** The simulated instant up to which every measurement due has been spooled. */
  long producedThroughMs() {
    return producedThroughMs;
  }

  @Override
  public void run() {
    while (!stopped) {
      long now = clock.nowMs();
      int produced = 0;
      while (!timers.isEmpty() && timers.peek().due <= now) {
        Timer t = timers.poll();
        produced += fire(t);
        timers.add(t);
      }
      for (int s : touched) {
        List<SpoolRecord> records = bySpool.get(s);
        try {
          site.spool(s).append(records);
        } catch (IOException e) {
          throw new UncheckedIOException("spooling failed", e);
        }
        records.clear();
        site.nudge(s);
      }
      touched.clear();
      ledger.offered(produced);
      producedThroughMs = now;
      long wait =
          timers.isEmpty()
              ? MAX_SLEEP_NANOS
              : clock.realNanosOf(timers.peek().due) - System.nanoTime();
      LockSupport.parkNanos(Math.max(200_000, Math.min(MAX_SLEEP_NANOS, wait)));
    }
  }

  /** Emits what timer {@code t} stands for, moves it to its next due time; returns readings. */
  private int fire(Timer t) {
    String host = plan.host(t.host);
    long ts = t.due;
    switch (t.kind) {
      case CPU, MEMORY -> {
        emit(t.host, (t.kind == CPU ? "cpu.availability:" : "memory.free:") + host, ts);
        t.due += SitePlan.HOST_PERIOD_MS;
        return 1;
      }
      default -> {
        String[] peers = site.peersOf(t.host);
        int j = nextPeer[t.host];
        int n = 0;
        if (j < peers.length) {
          for (String r : SitePlan.PAIR_RESOURCES) {
            emit(t.host, r + ":" + host + "->" + peers[j], ts);
            n++;
          }
        }
        int peerCount = Math.max(1, peers.length);
        if (++j >= peerCount) {
          j = 0;
          slotStart[t.host] += SitePlan.CLIQUE_PERIOD_MS;
        }
        nextPeer[t.host] = j;
        t.due = slotStart[t.host] + j * peerStep[t.host];
        return n;
      }
    }
  }

  private void emit(int host, String series, long ts) {
    int s = site.spoolOf(host);
    List<SpoolRecord> records = bySpool.get(s);
    if (records.isEmpty()) {
      touched.add(s);
    }
    records.add(new SpoolRecord(series, ts, values.value(series, plan.indexOf(series), ts)));
  }
}
