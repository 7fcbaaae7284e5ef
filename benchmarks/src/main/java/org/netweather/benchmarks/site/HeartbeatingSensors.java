package org.netweather.benchmarks.site;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.netweather.api.v1.HeartbeatRequest;
import org.netweather.api.v1.HeartbeatResponse;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.RegisterResponse;
import org.netweather.api.v1.Registration;

/**
 * Many simulated sensors in one process, on a few threads and async stubs: each registers a sensor
 * record with a lease and heartbeats at a third of its TTL, as the sensor's Registrar does. The
 * sensors are in clusters of {@code clusterHosts}; each is given every nameserver, its cluster's
 * list starting at a different one (cluster {@code c} at {@code c % N}, as a site would configure a
 * cluster's sensors alike), so each nameserver is the first of a share of them; a heartbeat that
 * fails UNAVAILABLE (or past its deadline) goes on at once, in the same beat, to the next
 * nameserver of its list, and a lease a nameserver no longer knows (NOT_FOUND) is registered again
 * and counted: that is a lease that expired. Counted apart: a NOT_FOUND from a nameserver other
 * than the one that granted the lease, reached after a failover: that one may not have heard yet of
 * a registration made at another moments before.
 */
final class HeartbeatingSensors {
  /** A sensor's heartbeat deadline, as the Registrar's. */
  private static final long DEADLINE_MS = 5_000;

  private final List<ManagedChannel> nameservers;
  private final ScheduledExecutorService scheduler;
  private final int count;
  private final int ttlSeconds;
  private final int clusterHosts;
  private final String[] leases;

  /** The first nameserver of each sensor's list. */
  private final int[] home;

  /** Which nameserver (index into the list) each sensor talks to now. */
  private final int[] current;

  /** Which nameserver granted each sensor's lease. */
  private final int[] grantedBy;

  /** When each sensor's last heartbeat (or registration) succeeded, System.nanoTime(). */
  private final AtomicLongArray lastSuccess;

  /** Heartbeats answered, per nameserver. */
  private final AtomicLongArray served;

  private final AtomicLong failovers = new AtomicLong();
  private final AtomicLong expired = new AtomicLong();
  private final AtomicLong expiredElsewhere = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong registered = new AtomicLong();

  HeartbeatingSensors(
      List<ManagedChannel> nameservers,
      ScheduledExecutorService scheduler,
      int count,
      int ttl,
      int clusterHosts) {
    this.nameservers = List.copyOf(nameservers);
    this.scheduler = scheduler;
    this.count = count;
    this.ttlSeconds = ttl;
    this.clusterHosts = clusterHosts;
    this.leases = new String[count];
    this.home = new int[count];
    this.current = new int[count];
    this.grantedBy = new int[count];
    this.lastSuccess = new AtomicLongArray(count);
    this.served = new AtomicLongArray(nameservers.size());
    for (int i = 0; i < count; i++) {
      home[i] = (i / clusterHosts) % nameservers.size();
      current[i] = home[i];
    }
  }

  /**
   * Registers every sensor with at most {@code inFlight} registrations outstanding, each starting
   * its heartbeats at a random phase of the period once it is registered (a lease must not wait for
   * the others' registrations). Starts no registration after {@code maxNanos}; returns once every
   * one started has succeeded.
   */
  void registerAll(int inFlight, long maxNanos) throws InterruptedException {
    long deadline = System.nanoTime() + maxNanos;
    Semaphore window = new Semaphore(inFlight);
    long periodMs = periodMs();
    // Round the clusters: sensors starting at once are of many clusters, and one cluster's record
    // is rewritten by one registration at a time (a versioned write).
    int clusters = (count + clusterHosts - 1) / clusterHosts;
    for (int k = 0; k < clusters * clusterHosts; k++) {
      int s = (k % clusters) * clusterHosts + k / clusters;
      if (s >= count) {
        continue;
      }
      if (System.nanoTime() - deadline > 0) {
        break; // the rest never start: the simulation goes on with those registered
      }
      window.acquire();
      register(
          s,
          () -> {
            window.release();
            next(s, (long) (ThreadLocalRandom.current().nextDouble() * periodMs));
          });
    }
    window.acquire(inFlight);
    window.release(inFlight);
  }

  long periodMs() {
    return ttlSeconds * 1000L / 3;
  }

  private static String host(int i) {
    return String.format("sim%06d.site", i);
  }

  private void register(int s, Runnable done) {
    String host = host(s);
    Registration reg =
        Registration.newBuilder()
            .setName("sensor@" + host)
            .setKind("sensor")
            .setAddress(host + ":8093")
            .putAttributes("host", host)
            .putAttributes("cluster", "c" + (s / clusterHosts))
            .build();
    int ns = current[s];
    NameserverGrpc.newStub(nameservers.get(ns))
        .withDeadlineAfter(60, TimeUnit.SECONDS)
        .register(
            RegisterRequest.newBuilder().setRegistration(reg).setTtlSeconds(ttlSeconds).build(),
            new StreamObserver<RegisterResponse>() {
              @Override
              public void onNext(RegisterResponse r) {
                leases[s] = r.getLeaseId();
                grantedBy[s] = ns;
                lastSuccess.set(s, System.nanoTime());
                registered.incrementAndGet();
              }

              @Override
              public void onError(Throwable t) {
                // The registry was busy or this nameserver is gone: the next one, a moment later.
                failed.incrementAndGet();
                current[s] = (ns + 1) % nameservers.size();
                scheduler.schedule(() -> register(s, done), 1, TimeUnit.SECONDS);
              }

              @Override
              public void onCompleted() {
                done.run();
              }
            });
  }

  private void beat(int s) {
    if (scheduler.isShutdown()) {
      return;
    }
    beat(s, 0);
  }

  /** One heartbeat, on its {@code tries}-th nameserver of this beat. */
  private void beat(int s, int tries) {
    int ns = current[s];
    NameserverGrpc.newStub(nameservers.get(ns))
        .withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS)
        .heartbeat(
            HeartbeatRequest.newBuilder().setLeaseId(leases[s]).build(),
            new StreamObserver<HeartbeatResponse>() {
              @Override
              public void onNext(HeartbeatResponse r) {
                lastSuccess.set(s, System.nanoTime());
                served.incrementAndGet(ns);
              }

              @Override
              public void onError(Throwable t) {
                Status.Code code = Status.fromThrowable(t).getCode();
                if (code == Status.Code.NOT_FOUND) {
                  expired.incrementAndGet();
                  if (ns != grantedBy[s]) {
                    expiredElsewhere.incrementAndGet();
                  }
                  register(s, () -> next(s, periodMs()));
                  return;
                }
                failed.incrementAndGet();
                if (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED) {
                  current[s] = (ns + 1) % nameservers.size();
                  failovers.incrementAndGet();
                  if (tries + 1 < nameservers.size()) {
                    beat(s, tries + 1);
                    return;
                  }
                }
                // Every nameserver failed (or an unexpected error): retry within seconds.
                if (!scheduler.isShutdown()) {
                  scheduler.schedule(() -> beat(s), 2, TimeUnit.SECONDS);
                }
              }

              @Override
              public void onCompleted() {
                next(s, periodMs());
              }
            });
  }

  private void next(int s, long delayMs) {
    if (!scheduler.isShutdown()) {
      scheduler.schedule(() -> beat(s), delayMs, TimeUnit.MILLISECONDS);
    }
  }

  /** Heartbeats answered so far by nameserver {@code ns}. */
  long served(int ns) {
    return served.get(ns);
  }

  long registered() {
    return registered.get();
  }

  /** Heartbeats (or registrations) that failed and were tried again elsewhere or later. */
  long failed() {
    return failed.get();
  }

  long failovers() {
    return failovers.get();
  }

  /** Heartbeats answered NOT_FOUND: leases that had expired, registered again. */
  long expired() {
    return expired.get();
  }

  /** Of {@link #expired}, those answered by a nameserver other than the one that granted them. */
  long expiredElsewhere() {
    return expiredElsewhere.get();
  }

  /** How many sensors have {@code ns} first in their list. */
  int homedAt(int ns) {
    int n = 0;
    for (int i = 0; i < count; i++) {
      if (home[i] == ns && leases[i] != null) {
        n++;
      }
    }
    return n;
  }

  /**
   * Among sensors whose list starts at {@code ns}, how many have not had a heartbeat succeed since
   * {@code sinceNanos}.
   */
  int notServedSince(int ns, long sinceNanos) {
    int left = 0;
    for (int i = 0; i < count; i++) {
      if (home[i] == ns && leases[i] != null && lastSuccess.get(i) - sinceNanos < 0) {
        left++;
      }
    }
    return left;
  }
}
