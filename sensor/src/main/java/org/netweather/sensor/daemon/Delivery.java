package org.netweather.sensor.daemon;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ObjLongConsumer;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.client.NetWeatherClient;
import org.netweather.client.ServerTime;
import org.netweather.client.TransportFailures;
import org.netweather.sensor.spool.Spool;
import org.netweather.sensor.spool.SpoolEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MarkerFactory;

/**
 * Moves spooled measurements to the memory-hosts the nameserver assigns their series, in batches,
 * acknowledging them in the spool only once a memory-host has acknowledged them. Each memory-host
 * is delivered to separately, so one that is down holds up only its own series; they wait in the
 * spool and go when it returns (or when their series move). Batches go on one long-lived append
 * stream per memory-host ({@link NetWeatherClient#appendOnStream}): on a busy site most of what a
 * small batch costs a memory-host is the call around it.
 *
 * <p>An assignment is kept until a delivery on it fails, or, when the nameserver says when to ask
 * again ({@code recheck_after_ms}: a shard placement, which an operator can move), until then; so a
 * moved shard's measurements go to its new memory-host within that time, even while the old one
 * still takes them.
 *
 * <p>A delivery that fails is a WARN naming the memory-host, the address dialled, the reason and
 * how many measurements wait in the spool. Each is marked with the address, so the process's repeat
 * folding logs it once a minute per memory-host with a count of the attempts in between, and one
 * memory-host's failures do not hide another's.
 *
 * <p>Public so that the site benchmark drives simulated sensors through this same code.
 */
public final class Delivery implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Delivery.class);
  static final int BATCH = 1000;
  private static final long MAX_BACKOFF_MS = 30_000;
  private static final long PRESSURE_BACKOFF_MS = 5_000;

  /** After a recheck the nameserver could not answer, the next try. */
  static final long RECHECK_RETRY_MS = 5_000;

  /** How far ahead of its clock a memory-host takes a timestamp (see memory.proto). */
  private static final long MAX_AHEAD_MS = 60_000;

  private final Spool spool;
  private final NetWeatherClient client;
  private final ScheduledExecutorService scheduler;
  private final LongSupplier clockMs;
  private final boolean plaintext;
  private final SiteClock site;
  private final ObjLongConsumer<String> refused;
  private final Map<String, String> addressOf = new HashMap<>();

  /**
   * When to ask the nameserver again about a series whose answer said so (a shard placement, which
   * an operator or a long absence may move), by the clock that times retries.
   */
  private final Map<String, Long> recheckAt = new HashMap<>();

  /** Registration name of the memory-host at each address, for messages. */
  private final Map<String, String> nameAt = new HashMap<>();

  private ScheduledFuture<?> task;
  private long backoffMs;
  private long nextTryMs;
  private volatile long delivered;

  /**
   * @param client resolves series and appends; not owned
   * @param scheduler runs the deliveries; not owned
   */
  public Delivery(Spool spool, NetWeatherClient client, ScheduledExecutorService scheduler) {
    this(spool, client, scheduler, System::currentTimeMillis, false);
  }

  /** As above, with the clock that times retries and rechecks (a simulated site's, or a test's). */
  public Delivery(
      Spool spool,
      NetWeatherClient client,
      ScheduledExecutorService scheduler,
      LongSupplier clockMs) {
    this(spool, client, scheduler, clockMs, false);
  }

  /**
   * As above, with the clock that times retries.
   *
   * @param plaintext whether this sensor dials without TLS: then a memory-host that closes the
   *     connection at once is checked for TLS, to say so in the warning
   */
  Delivery(
      Spool spool,
      NetWeatherClient client,
      ScheduledExecutorService scheduler,
      LongSupplier clockMs,
      boolean plaintext) {
    this(spool, client, scheduler, clockMs, plaintext, new SiteClock(clockMs), (r, n) -> {});
  }

  /**
   * As above, learning the memory-hosts' clock into {@code site} (and moving stamps a fast clock
   * made before its offset was known), and telling {@code refused} how many measurements a
   * memory-host refused, by reason.
   */
  Delivery(
      Spool spool,
      NetWeatherClient client,
      ScheduledExecutorService scheduler,
      LongSupplier clockMs,
      boolean plaintext,
      SiteClock site,
      ObjLongConsumer<String> refused) {
    this.spool = spool;
    this.client = client;
    this.scheduler = scheduler;
    this.clockMs = clockMs;
    this.plaintext = plaintext;
    this.site = site;
    this.refused = refused;
  }

  /**
   * Delivers what is spooled every {@code periodMs} from now on. Measurements wait up to that long:
   * fewer, larger calls are what keeps a memory-host's cost per measurement low.
   */
  public synchronized Delivery start(long periodMs) {
    task =
        scheduler.scheduleWithFixedDelay(
            this::deliverSafely, periodMs, periodMs, TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * Tells it new measurements were spooled: a full batch goes at once, anything less at the next
   * period.
   */
  public void nudge() {
    if (spool.pending() >= BATCH) {
      scheduler.execute(this::deliverSafely);
    }
  }

  /** Asks for a delivery now, whatever is spooled. */
  public void flush() {
    scheduler.execute(this::deliverSafely);
  }

  /** Measurements acknowledged by a memory-host so far. */
  public long delivered() {
    return delivered;
  }

  /** One delivery attempt, unless the back-off after a failure is still running. */
  synchronized void deliverSafely() {
    if (clockMs.getAsLong() < nextTryMs) {
      return;
    }
    if (backoffMs > 0) {
      // A retry: without this, a memory-host that is back would only be reached once gRPC's own
      // reconnect back-off (up to two minutes) has run out.
      client.resetConnectBackoff();
    }
    try {
      while (deliverOnce() == BATCH) {
        // keep going while full batches come out
      }
      backoffMs = 0;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED) {
        // Back-pressure (a full disk, a limit on series): waiting is the answer, and the
        // spool keeps the measurements meanwhile, within its own bound.
        backoffMs = Math.max(PRESSURE_BACKOFF_MS, Math.min(MAX_BACKOFF_MS, backoffMs * 2));
        log.warn(
            "memory-host is exhausted ({}); measurements stay spooled, next try in {} s",
            e.getStatus().getDescription(),
            backoffMs / 1000);
      } else {
        backoffMs = Math.max(500, Math.min(MAX_BACKOFF_MS, backoffMs * 2));
        log.debug("delivery failed ({}); retrying in {} ms", e.getStatus(), backoffMs);
      }
      nextTryMs = clockMs.getAsLong() + backoffMs;
    } catch (IOException | RuntimeException e) {
      log.error("delivery failed", e);
    }
  }

  /** Delivers one batch; returns how many entries it took from the spool. */
  @SuppressWarnings("NonAtomicVolatileUpdate") // one delivery at a time writes `delivered`
  int deliverOnce() throws IOException {
    List<SpoolEntry> batch = spool.unacknowledged(BATCH);
    if (batch.isEmpty()) {
      return 0;
    }
    List<String> unknown = new ArrayList<>();
    long now = clockMs.getAsLong();
    for (SpoolEntry e : batch) {
      if ((!addressOf.containsKey(e.series()) || recheckAt.getOrDefault(e.series(), now + 1) <= now)
          && !unknown.contains(e.series())) {
        unknown.add(e.series());
      }
    }
    Map<String, String> lapsed = new LinkedHashMap<>();
    if (!unknown.isEmpty()) {
      List<SeriesAssignment> assigned;
      try {
        assigned = client.assign(unknown);
      } catch (StatusRuntimeException e) {
        if (unknown.stream().allMatch(addressOf::containsKey)) {
          // Only a recheck: the answers held still work; ask again a little later.
          log.debug("cannot recheck where {} series go: {}", unknown.size(), e.getStatus());
          unknown.forEach(series -> recheckAt.put(series, now + RECHECK_RETRY_MS));
          assigned = List.of();
        } else {
          log.warn(
              "cannot ask the nameserver where to deliver {} series: {}; {} measurements wait in the"
                  + " spool",
              unknown.size(),
              TransportFailures.describe(e.getStatus()),
              spool.pending());
          throw e;
        }
      }
      for (SeriesAssignment a : assigned) {
        if (a.getRecheckAfterMs() > 0) {
          recheckAt.put(a.getSeries(), now + a.getRecheckAfterMs());
        } else {
          recheckAt.remove(a.getSeries());
        }
        // No address: the assigned memory-host's lease has lapsed (it is restarting). Ask again
        // next time rather than remember a memory-host that cannot be reached.
        if (a.getAddress().isEmpty()) {
          lapsed.merge(a.getMemoryHost(), a.getSeries(), (x, y) -> x);
          addressOf.remove(a.getSeries());
        } else {
          addressOf.put(a.getSeries(), a.getAddress());
          nameAt.put(a.getAddress(), a.getMemoryHost());
        }
      }
    }
    lapsed.forEach(
        (host, series) ->
            log.warn(
                MarkerFactory.getDetachedMarker(host),
                "cannot deliver to {}: its lease has lapsed and no other memory-host holds {};"
                    + " {} measurements wait in the spool",
                host.isEmpty() ? "a memory-host" : host,
                series,
                spool.pending()));
    Map<String, List<SpoolEntry>> byHost = new LinkedHashMap<>();
    int waiting = 0;
    for (SpoolEntry e : batch) {
      String address = addressOf.get(e.series());
      if (address == null) {
        waiting++; // stays spooled
        continue;
      }
      byHost.computeIfAbsent(address, k -> new ArrayList<>()).add(e);
    }
    StatusRuntimeException failure =
        waiting == 0
            ? null
            : Status.UNAVAILABLE
                .withDescription("no live memory-host for " + waiting + " measurements")
                .asRuntimeException();
    for (Map.Entry<String, List<SpoolEntry>> h : byHost.entrySet()) {
      Map<String, SeriesPoints.Builder> bySeries = new LinkedHashMap<>();
      for (SpoolEntry e : h.getValue()) {
        bySeries
            .computeIfAbsent(e.series(), s -> SeriesPoints.newBuilder().setSeries(s))
            .addPoints(
                Measurement.newBuilder()
                    .setTimestampMs(site.deliverable(e.timestampMs()))
                    .setValue(e.value()));
      }
      AppendRequest.Builder req = AppendRequest.newBuilder();
      bySeries.values().forEach(req::addBatches);
      AppendRequest request = req.build();
      long sent = System.nanoTime();
      try {
        AppendResponse r = client.appendOnStream(h.getKey(), request);
        site.heard(r.getServerTimeMs(), System.nanoTime() - sent, h.getKey(), true);
      } catch (StatusRuntimeException e) {
        long serverMs = ServerTime.of(e);
        site.heard(serverMs, System.nanoTime() - sent, h.getKey(), true);
        if (e.getStatus().getCode() == Status.Code.INVALID_ARGUMENT
            && aheadOf(serverMs, request, e)) {
          // This host's clock runs fast and the offset was not known when they were stamped.
          // Now it is (the refusal carries the memory-host's clock): they stay spooled and go
          // again at the next try, stamped with the site's time. Nothing is lost.
          refused.accept("future_timestamp", h.getValue().size());
          log.warn(
              MarkerFactory.getDetachedMarker(h.getKey()),
              "memory-host {} refused {} measurements stamped ahead of its clock ({}); they stay"
                  + " spooled and go again stamped with the site's time",
              h.getKey(),
              h.getValue().size(),
              e.getStatus().getDescription());
          failure = e;
          continue;
        }
        if (e.getStatus().getCode() == Status.Code.INVALID_ARGUMENT) {
          // A measurement the memory-host will never take would block the spool forever.
          refused.accept("invalid", h.getValue().size());
          log.error(
              "memory-host {} refused {} measurements: {}; dropping them",
              h.getKey(),
              h.getValue().size(),
              e.getStatus().getDescription());
          spool.acknowledge(h.getValue().stream().mapToLong(SpoolEntry::seq).toArray());
          continue;
        }
        if (e.getStatus().getCode() != Status.Code.RESOURCE_EXHAUSTED) {
          log.warn(
              MarkerFactory.getDetachedMarker(h.getKey()),
              "cannot deliver to {} at {}: {}; {} measurements wait in the spool",
              nameAt.getOrDefault(h.getKey(), "the memory-host"),
              h.getKey(),
              TransportFailures.describe(e.getStatus(), h.getKey(), plaintext),
              spool.pending());
          // Ask the nameserver again next time: the series may have moved.
          h.getValue().forEach(x -> addressOf.remove(x.series()));
        }
        failure = e;
        continue;
      }
      spool.acknowledge(h.getValue().stream().mapToLong(SpoolEntry::seq).toArray());
      delivered += h.getValue().size();
    }
    if (failure != null) {
      throw failure;
    }
    return batch.size();
  }

  /**
   * Whether a refusal was for timestamps ahead of the memory-host's clock: by its clock when the
   * refusal carries it, else by its message.
   */
  private static boolean aheadOf(long serverMs, AppendRequest req, StatusRuntimeException e) {
    if (serverMs <= 0) {
      String m = e.getStatus().getDescription();
      return m != null && m.contains("in the future");
    }
    for (SeriesPoints sp : req.getBatchesList()) {
      for (Measurement m : sp.getPointsList()) {
        if (m.getTimestampMs() > serverMs + MAX_AHEAD_MS) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public synchronized void close() {
    if (task != null) {
      task.cancel(false);
    }
  }
}
