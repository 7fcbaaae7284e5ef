package org.netweather.sensor.daemon;

import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.ListCliquesRequest;
import org.netweather.api.v1.ListCliquesResponse;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.WatchCliquesRequest;
import org.netweather.api.v1.WatchCliquesResponse;
import org.netweather.sensor.clique.CliqueConfig;
import org.netweather.sensor.clique.CliqueRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this host's clique memberships in step with the cliques the nameserver holds for it: joins
 * new ones, re-joins changed ones, leaves deleted ones.
 *
 * <p>The nameserver pushes them (WatchCliques: the whole set at once and after every change), so an
 * idle site costs it nothing per sensor. When the stream ends the watcher resumes it after a
 * jittered back-off, which also spreads thousands of sensors reconnecting after a nameserver
 * restart. Only if the nameserver cannot stream (too old: UNIMPLEMENTED; or out of watch slots:
 * RESOURCE_EXHAUSTED) does it poll ListCliques instead, every {@code fallbackPollMs}, trying the
 * stream again each time. While the nameserver is away the cliques joined stay as they are.
 *
 * <p>Thread-safety: updates are applied under this object's lock; the stream's callbacks and the
 * scheduler may call in from any thread.
 */
final class CliqueWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CliqueWatcher.class);
  private static final long FIRST_RETRY_MS = 1_000;

  private final String self;
  private final NameserverGrpc.NameserverStub streams;
  private final NameserverGrpc.NameserverBlockingStub calls;
  private final CliqueRegistry registry;
  private final PeerDirectory peers;
  private final ScheduledExecutorService scheduler;
  private final long fallbackPollMs;
  private final Map<String, Clique> joined = new HashMap<>();
  private ClientCallStreamObserver<WatchCliquesRequest> call;
  private long retryMs = FIRST_RETRY_MS;
  private boolean pollNext;
  private boolean closed;

  /**
   * @param scheduler resumes the stream and runs fallback polls; not owned
   * @param fallbackPollMs the poll period when the nameserver cannot stream, and the longest wait
   *     between attempts to resume the stream
   */
  CliqueWatcher(
      String self,
      Channel nameserver,
      CliqueRegistry registry,
      PeerDirectory peers,
      ScheduledExecutorService scheduler,
      long fallbackPollMs) {
    this.self = self;
    this.streams = NameserverGrpc.newStub(nameserver);
    this.calls = NameserverGrpc.newBlockingStub(nameserver);
    this.registry = registry;
    this.peers = peers;
    this.scheduler = scheduler;
    this.fallbackPollMs = Math.max(FIRST_RETRY_MS, fallbackPollMs);
  }

  /** Opens the stream; its first message brings the cliques this host is in. */
  synchronized CliqueWatcher start() {
    if (closed || call != null) {
      return this;
    }
    streams.watchCliques(
        WatchCliquesRequest.newBuilder().setHost(self).build(),
        new ClientResponseObserver<WatchCliquesRequest, WatchCliquesResponse>() {
          @Override
          public void beforeStart(ClientCallStreamObserver<WatchCliquesRequest> requestStream) {
            call = requestStream;
          }

          @Override
          public void onNext(WatchCliquesResponse r) {
            synchronized (CliqueWatcher.this) {
              retryMs = FIRST_RETRY_MS;
              pollNext = false;
            }
            apply(r.getCliquesList());
          }

          @Override
          public void onError(Throwable t) {
            ended(Status.fromThrowable(t));
          }

          @Override
          public void onCompleted() {
            ended(Status.UNAVAILABLE.withDescription("nameserver ended the watch"));
          }
        });
    return this;
  }

  private synchronized void ended(Status status) {
    call = null;
    if (closed) {
      return;
    }
    long delay;
    if (status.getCode() == Status.Code.UNIMPLEMENTED
        || status.getCode() == Status.Code.RESOURCE_EXHAUSTED) {
      if (!pollNext) {
        log.info(
            "nameserver does not stream cliques ({}); polling every {} ms",
            status.getCode(),
            fallbackPollMs);
      }
      // The first poll comes soon so the cliques are known; later ones at the fallback pace.
      delay = pollNext ? fallbackPollMs : FIRST_RETRY_MS;
      pollNext = true;
    } else {
      pollNext = false;
      delay = retryMs;
      retryMs = Math.min(fallbackPollMs, retryMs * 2);
    }
    long jittered = delay / 2 + ThreadLocalRandom.current().nextLong(delay);
    scheduler.schedule(this::resume, jittered, TimeUnit.MILLISECONDS);
  }

  private void resume() {
    boolean poll;
    synchronized (this) {
      if (closed) {
        return;
      }
      poll = pollNext;
    }
    if (poll) {
      poll();
    }
    start();
  }

  /** Asks for this host's cliques once (the fallback when the stream is unavailable). */
  void poll() {
    List<Clique> now;
    try {
      ListCliquesResponse r =
          calls
              .withDeadlineAfter(3, TimeUnit.SECONDS)
              .listCliques(ListCliquesRequest.newBuilder().setHost(self).build());
      now = r.getCliquesList();
    } catch (StatusRuntimeException e) {
      return; // keep the cliques we are in while the nameserver is away
    }
    apply(now);
  }

  /** Joins, re-joins and leaves so that this host is in exactly {@code cliques}. */
  synchronized void apply(List<Clique> cliques) {
    if (closed) {
      return;
    }
    Map<String, Clique> now = new HashMap<>();
    for (Clique c : cliques) {
      now.put(c.getName(), c);
    }
    if (now.equals(joined)) {
      return;
    }
    // Peer addresses matter only for the cliques we are in: look again when they change.
    Set<String> members = new HashSet<>();
    for (Clique c : cliques) {
      members.addAll(c.getMembersList());
    }
    members.remove(self);
    peers.refresh(members);
    for (String name : joined.keySet().toArray(new String[0])) {
      if (!now.containsKey(name)) {
        log.info("leaving clique {}", name);
        registry.leave(name);
        joined.remove(name);
      }
    }
    for (Clique c : now.values()) {
      if (!c.equals(joined.get(c.getName()))) {
        log.info(
            "joining clique {} with {} every {} s",
            c.getName(),
            c.getMembersList(),
            c.getPeriodSeconds());
        registry.join(
            new CliqueConfig(
                c.getName(), c.getMembersList(), Duration.ofSeconds(c.getPeriodSeconds())));
        joined.put(c.getName(), c);
      }
    }
  }

  /** Stops watching; the cliques joined stay (the registry is closed with the daemon). */
  @Override
  public void close() {
    ClientCallStreamObserver<WatchCliquesRequest> c;
    synchronized (this) {
      closed = true;
      c = call;
      call = null;
    }
    if (c != null) {
      c.cancel("sensor stopping", null);
    }
  }
}
