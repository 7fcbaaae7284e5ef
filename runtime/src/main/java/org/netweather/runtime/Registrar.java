package org.netweather.runtime;

import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.HeartbeatRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.RegisterResponse;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.UnregisterRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one daemon registered with the nameserver: registers, heartbeats every third of the TTL,
 * and registers again whenever the nameserver has forgotten the lease (it expired, or the
 * nameserver lost it). A nameserver that is down is retried at the heartbeat pace; the daemon keeps
 * working meanwhile.
 *
 * <p>Thread-safety: all work runs on the injected scheduler.
 */
public final class Registrar implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Registrar.class);
  private static final long RPC_DEADLINE_MS = 5_000;

  private final NameserverGrpc.NameserverBlockingStub stub;
  private final Registration registration;
  private final Duration ttl;
  private final ScheduledExecutorService scheduler;
  private final boolean unregisterOnClose;
  private volatile String leaseId;
  private volatile boolean registered;
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
    this.registration = registration;
    this.ttl = ttl;
    this.scheduler = scheduler;
    this.unregisterOnClose = unregisterOnClose;
  }

  /** Registers now (if the nameserver answers) and keeps the lease alive from then on. */
  public synchronized Registrar start() {
    beat();
    long period = Math.max(200, ttl.toMillis() / 3);
    task = scheduler.scheduleWithFixedDelay(this::beat, period, period, TimeUnit.MILLISECONDS);
    return this;
  }

  private void beat() {
    try {
      if (leaseId != null) {
        try {
          stub.withDeadlineAfter(RPC_DEADLINE_MS, TimeUnit.MILLISECONDS)
              .heartbeat(HeartbeatRequest.newBuilder().setLeaseId(leaseId).build());
          registered = true;
          return;
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
            throw e;
          }
          log.info("nameserver forgot lease of {}; registering again", registration.getName());
        }
      }
      RegisterResponse r =
          stub.withDeadlineAfter(RPC_DEADLINE_MS, TimeUnit.MILLISECONDS)
              .register(
                  RegisterRequest.newBuilder()
                      .setRegistration(registration)
                      .setTtlSeconds(Math.max(1, ttl.toSeconds()))
                      .build());
      leaseId = r.getLeaseId();
      if (!registered) {
        log.info(
            "registered {} ({}) at {}",
            registration.getName(),
            registration.getKind(),
            registration.getAddress());
      }
      registered = true;
    } catch (StatusRuntimeException e) {
      if (registered) {
        log.warn("nameserver unreachable for {}: {}", registration.getName(), e.getStatus());
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
  }

  /** Stops heartbeating and, if so configured, removes the registration (best effort). */
  @Override
  public synchronized void close() {
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
