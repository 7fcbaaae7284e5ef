package org.netweather.runtime;

import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.HeartbeatRequest;
import org.netweather.api.v1.HeartbeatResponse;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.RegisterResponse;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.UnregisterRequest;
import org.netweather.client.FailoverChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one daemon registered with the nameserver: registers, heartbeats every third of the TTL,
 * and registers again whenever the nameserver has forgotten the lease (it expired, or the
 * nameserver lost it). After a failed try it tries again within seconds (1 s, then doubling up to
 * {@link #MAX_RETRY_MS}) rather than a whole period later: a nameserver that stalled or was cut off
 * for most of a TTL leaves little of it, and the lease must be renewed as soon as it answers again.
 * The daemon keeps working meanwhile.
 *
 * <p>Given a {@link FailoverChannel} over several nameservers (side by side on a shared registry),
 * a try that finds one unavailable goes on at once to the next, within the same beat: the lease is
 * the same there (that nameserver adopts it), so a nameserver that dies costs its daemons no
 * registration and no lease.
 *
 * <p>Every answer carries the nameserver's clock; a {@link ServerTimeListener} hears it, with the
 * call's round trip, so a daemon can tell its own clock is wrong.
 *
 * <p>Thread-safety: all work runs on the injected scheduler.
 */
public final class Registrar implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Registrar.class);
  private static final long RPC_DEADLINE_MS = 5_000;
  static final long FIRST_RETRY_MS = 1_000;
  static final long MAX_RETRY_MS = 5_000;

  /** Hears the nameserver's clock from each answer. */
  @FunctionalInterface
  public interface ServerTimeListener {
    /**
     * Called after each answer, on the registrar's thread; must not block.
     *
     * @param serverTimeMs the nameserver's clock when it answered, Unix epoch milliseconds
     * @param roundTripNanos how long the call took; the answer was made about half-way through
     */
    void answered(long serverTimeMs, long roundTripNanos);
  }

  private final NameserverGrpc.NameserverBlockingStub stub;

  /** Nameservers one beat may try: those of the list, one after another. */
  private final int nameservers;

  /** Whether the last try failed for want of a nameserver (the next one may answer). */
  private boolean unreachable;

  private volatile Registration registration;
  private final Duration ttl;
  private final ScheduledExecutorService scheduler;
  private final boolean unregisterOnClose;
  private volatile ServerTimeListener serverTime = (t, rtt) -> {};
  private volatile String leaseId;
  private volatile boolean registered;
  private final Object beatLock = new Object();
  private Registration registeredRecord; // what the lease was last registered with
  private long retryMs;
  private boolean closed;
  private ScheduledFuture<?> task;

  /**
   * @param channel to the nameserver; not owned
   * @param scheduler runs the heartbeats; not owned
   * @param unregisterOnClose false for daemons whose restart should not look like a departure (a
   *     memory-host's series move when its registration goes)
   */
  public Registrar(
      Channel channel,
      Registration registration,
      Duration ttl,
      ScheduledExecutorService scheduler,
      boolean unregisterOnClose) {
    this.stub = NameserverGrpc.newBlockingStub(channel);
    this.nameservers = channel instanceof FailoverChannel f ? f.size() : 1;
    this.registration = registration;
    this.ttl = ttl;
    this.scheduler = scheduler;
    this.unregisterOnClose = unregisterOnClose;
  }

  /** Hears the nameserver's clock from every answer from now on; set it before {@link #start}. */
  public Registrar serverTime(ServerTimeListener listener) {
    this.serverTime = listener;
    return this;
  }

  /** Registers now (if the nameserver answers) and keeps the lease alive from then on. */
  public Registrar start() {
    tick();
    return this;
  }

  /**
   * Replaces what is registered (new attributes, say) and registers it at once, in the background;
   * the lease carries on under the new record.
   */
  public void update(Registration newRegistration) {
    registration = newRegistration;
    synchronized (this) {
      if (!closed) {
        try {
          scheduler.execute(this::beat);
        } catch (RejectedExecutionException e) {
          // shutting down: the record goes with the daemon
        }
      }
    }
  }

  /** Heartbeat period: a third of the TTL. */
  long periodMs() {
    return Math.max(200, ttl.toMillis() / 3);
  }

  private void tick() {
    boolean ok = beat(); // not under the lock: close() need not wait for a call
    synchronized (this) {
      if (closed) {
        return;
      }
      long next;
      if (ok) {
        retryMs = 0;
        next = periodMs();
      } else {
        retryMs = retryMs == 0 ? FIRST_RETRY_MS : Math.min(MAX_RETRY_MS, retryMs * 2);
        next = Math.min(retryMs, periodMs());
      }
      task = scheduler.schedule(this::tick, next, TimeUnit.MILLISECONDS);
    }
  }

  /** One heartbeat (or registration); whether the nameserver now holds a lease for this daemon. */
  private boolean beat() {
    synchronized (beatLock) { // one try at a time: update() adds tries of its own
      for (int i = 0; ; i++) {
        if (beatOnce()) {
          return true;
        }
        if (!unreachable || i + 1 >= nameservers) {
          return false;
        }
      }
    }
  }

  private boolean beatOnce() {
    Registration registration = this.registration; // one record for the whole try
    unreachable = false;
    try {
      // A heartbeat renews the lease only; a record that changed needs a Register.
      if (leaseId != null && registration.equals(registeredRecord)) {
        try {
          long t0 = System.nanoTime();
          HeartbeatResponse r =
              stub.withDeadlineAfter(RPC_DEADLINE_MS, TimeUnit.MILLISECONDS)
                  .heartbeat(HeartbeatRequest.newBuilder().setLeaseId(leaseId).build());
          heard(r.getServerTimeMs(), System.nanoTime() - t0);
          registered = true;
          return true;
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
            throw e;
          }
          log.info("nameserver forgot lease of {}; registering again", registration.getName());
        }
      }
      long t0 = System.nanoTime();
      RegisterResponse r =
          stub.withDeadlineAfter(RPC_DEADLINE_MS, TimeUnit.MILLISECONDS)
              .register(
                  RegisterRequest.newBuilder()
                      .setRegistration(registration)
                      .setTtlSeconds(Math.max(1, ttl.toSeconds()))
                      .build());
      heard(r.getServerTimeMs(), System.nanoTime() - t0);
      leaseId = r.getLeaseId();
      registeredRecord = registration;
      if (!registered) {
        log.info(
            "registered {} ({}) at {}",
            registration.getName(),
            registration.getKind(),
            registration.getAddress());
      }
      registered = true;
      return true;
    } catch (StatusRuntimeException e) {
      Status.Code code = e.getStatus().getCode();
      unreachable = code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
      if (registered) {
        log.warn(
            "nameserver unreachable for {}: {}; trying again within {} s",
            registration.getName(),
            e.getStatus(),
            MAX_RETRY_MS / 1000);
      } else {
        // Not registered yet: say why on every try (repeats are folded into a count).
        log.warn(
            "cannot register {} with the nameserver at {}: {}",
            registration.getName(),
            stub.getChannel().authority(),
            e.getStatus());
      }
      registered = false;
    } catch (RuntimeException e) {
      log.error("registration of {} failed", registration.getName(), e);
      registered = false;
    }
    return false;
  }

  private void heard(long serverTimeMs, long roundTripNanos) {
    if (serverTimeMs > 0) { // 0: a nameserver older than the field
      try {
        serverTime.answered(serverTimeMs, roundTripNanos);
      } catch (RuntimeException e) {
        log.warn("server time listener failed", e);
      }
    }
  }

  /** Stops heartbeating and, if so configured, removes the registration (best effort). */
  @Override
  public synchronized void close() {
    closed = true;
    if (task != null) {
      task.cancel(false);
    }
    if (!unregisterOnClose) {
      return;
    }
    try {
      stub.withDeadlineAfter(2_000, TimeUnit.MILLISECONDS)
          .unregister(UnregisterRequest.newBuilder().setName(registration.getName()).build());
    } catch (StatusRuntimeException e) {
      // The lease will expire on its own.
    }
  }
}
