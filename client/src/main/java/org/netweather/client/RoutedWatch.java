package org.netweather.client;

import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastsRequest;

/**
 * WatchForecasts on a site whose forecasters share the shards: one stream (a <em>leg</em>) per
 * forecaster that serves some of the watched series, their updates merged into one observer.
 *
 * <p>Series names and patterns with a literal source host go to their shard's owner, patterns over
 * several hosts to every forecaster. A leg that a forecaster ends with SHARD_NOT_OWNED (a shard
 * moved to or from it) is re-routed at once after the forecaster list is fetched again, to the
 * forecaster the answer names if it names one; a leg that fails otherwise (a forecaster stopped) is
 * opened again with backoff, after the list is fetched again; and every refresh period the list is
 * checked, the legs re-planned when it changed. A forecaster's hint is followed only to a
 * forecaster the nameserver lists and whose last leg did not fail: after a SIGKILL the survivors
 * name the dead one as owner until its registry session ends, and a hint to it would hold its
 * series there. Each new leg begins with the current forecasts of its series, so a re-route loses
 * nothing. Only INVALID_ARGUMENT (the request itself is wrong) reaches the observer as an error,
 * and CANCELLED once the watch is closed.
 *
 * <p>Thread-safe; the observer is called by one thread at a time.
 */
final class RoutedWatch implements AutoCloseable {
  private static final System.Logger log = System.getLogger(RoutedWatch.class.getName());
  private static final long FIRST_BACKOFF_MS = 200;
  private static final long MAX_BACKOFF_MS = 10_000;
  // A shard on its way to a new owner is served again within seconds: look again soon.
  private static final long MAX_MOVED_BACKOFF_MS = 2_000;

  private final ShardRouter router;
  private final Function<String, Channel> channels;
  private final GetForecastsRequest request;
  private final StreamObserver<ForecastUpdate> observer;
  private final ScheduledExecutorService scheduler;
  private final LongSupplier nanoTime;
  private final Object delivering = new Object();
  private final Map<String, Leg> legs = new HashMap<>();
  // A leg that ended waits out its backoff before it is opened again: address -> not before.
  private final Map<String, Long> notBefore = new HashMap<>();
  private final Map<String, Long> backoffMs = new HashMap<>();
  // Shards a forecaster said another serves: shard -> that one's address, until the list changes.
  private final Map<Integer, String> hinted = new HashMap<>();
  // Forecasters whose last leg failed (not re-routed) and that have not answered since.
  private final Set<String> unreachable = new HashSet<>();
  private List<String> planned = List.of();
  private ScheduledFuture<?> checking;
  private boolean closed;

  RoutedWatch(
      ShardRouter router,
      Function<String, Channel> channels,
      GetForecastsRequest request,
      StreamObserver<ForecastUpdate> observer,
      ScheduledExecutorService scheduler,
      LongSupplier nanoTime) {
    this.router = router;
    this.channels = channels;
    this.request = request;
    this.observer = observer;
    this.scheduler = scheduler;
    this.nanoTime = nanoTime;
  }

  /** Opens the legs for {@code view} and checks the forecaster list every {@code period}. */
  synchronized void start(ShardRouter.View view, Duration period) {
    replan(view);
    long ms = Math.max(100, period.toMillis());
    checking = scheduler.scheduleWithFixedDelay(this::check, ms, ms, TimeUnit.MILLISECONDS);
  }

  /** The addresses of the open legs, for tests. */
  synchronized List<String> legs() {
    return List.copyOf(legs.keySet());
  }

  private void check() {
    ShardRouter.View view;
    try {
      view = router.current();
    } catch (StatusRuntimeException e) {
      return; // the nameserver is unreachable: keep the legs we have
    }
    synchronized (this) {
      if (!view.signature().equals(planned)) {
        hinted.clear(); // the members changed: owners are computed afresh
        // What is kept per forecaster goes with it, so a long-lived watch holds nothing for
        // forecasters long gone.
        unreachable.removeIf(a -> !view.lists(a));
        notBefore.keySet().removeIf(a -> !view.lists(a) && !legs.containsKey(a));
        backoffMs.keySet().removeIf(a -> !view.lists(a) && !legs.containsKey(a));
      }
      replan(view);
    }
  }

  /** Opens every leg the plan wants that is not open (and not backing off), closes the others. */
  private void replan(ShardRouter.View view) {
    if (closed) {
      return;
    }
    planned = view.signature();
    Map<String, List<String>> plan;
    try {
      plan = plan(view);
    } catch (StatusRuntimeException e) {
      plan = Map.of(); // no forecaster registered: the next check finds one
    }
    for (String address : new ArrayList<>(legs.keySet())) {
      Leg leg = legs.get(address);
      if (!leg.items.equals(plan.get(address))) {
        legs.remove(address);
        leg.cancel();
      }
    }
    long now = nanoTime.getAsLong();
    for (Map.Entry<String, List<String>> e : plan.entrySet()) {
      String address = e.getKey();
      if (!legs.containsKey(address) && notBefore.getOrDefault(address, now) - now <= 0) {
        Leg leg = new Leg(address, e.getValue());
        legs.put(address, leg);
        leg.open();
      }
    }
  }

  private Map<String, List<String>> plan(ShardRouter.View view) {
    Map<String, List<String>> plan = new LinkedHashMap<>();
    List<String> everywhere = new ArrayList<>();
    for (String item : request.getSeriesList()) {
      int shard = ShardRouter.shardOf(item);
      String address = shard >= 0 ? hinted.get(shard) : null;
      if (address != null && !view.lists(address)) {
        address = null; // named by a forecaster that is no longer listed: gone
      }
      if (address == null) {
        address = view.route(item);
      }
      if (address == null) {
        everywhere.add(item);
      } else {
        plan.computeIfAbsent(address, k -> new ArrayList<>()).add(item);
      }
    }
    if (!everywhere.isEmpty()) {
      for (String address : view.addresses()) {
        plan.computeIfAbsent(address, k -> new ArrayList<>()).addAll(everywhere);
      }
    }
    return plan;
  }

  /** A leg ended other than by our cancel: re-route it. Runs on the scheduler. */
  private void ended(Leg leg, Throwable failure) {
    Status status = failure == null ? Status.OK : Status.fromThrowable(failure);
    if (status.getCode() == Status.Code.INVALID_ARGUMENT) {
      fail(failure);
      return;
    }
    ShardNotOwned moved = failure == null ? null : ShardNotOwned.of(failure).orElse(null);
    ShardRouter.View view;
    try {
      view = moved != null ? router.refresh() : invalidated();
    } catch (StatusRuntimeException e) {
      view = null;
    }
    synchronized (this) {
      if (closed || legs.get(leg.address) != leg) {
        return;
      }
      legs.remove(leg.address);
      if (leg.delivered) {
        backoffMs.remove(leg.address); // it worked for a while: start the backoff afresh
      }
      long wait;
      if (moved != null) {
        unreachable.remove(leg.address); // it answered
        // An expected re-route: at once the first time, with backoff if it keeps happening.
        wait =
            backoffMs.containsKey(leg.address) ? nextBackoff(leg.address, MAX_MOVED_BACKOFF_MS) : 0;
        backoffMs.putIfAbsent(leg.address, 0L);
        if (moved.shard() >= 0) {
          // Follow a hint that names another forecaster; a shard that arrived names none (or the
          // forecaster itself), and the computed owner stands.
          String hint = moved.ownerAddress();
          if (hint.isEmpty() && !moved.owner().isEmpty() && view != null) {
            hint = view.addressOf(moved.owner());
          }
          // A forecaster that was killed is still named by the others until its registry session
          // ends: follow only hints to forecasters the nameserver lists and that answer.
          if (hint == null
              || hint.isEmpty()
              || hint.equals(leg.address)
              || view == null
              || !view.lists(hint)
              || unreachable.contains(hint)) {
            hinted.remove(moved.shard());
          } else {
            hinted.put(moved.shard(), hint);
          }
        }
      } else {
        // Whatever pointed here points nowhere now: the computed owners stand until it answers.
        unreachable.add(leg.address);
        hinted.values().removeIf(leg.address::equals);
        boolean first = !backoffMs.containsKey(leg.address);
        wait = nextBackoff(leg.address, MAX_BACKOFF_MS);
        if (first) {
          // The caller sees no error (the watch mends itself), so say it here, once per outage.
          log.log(
              System.Logger.Level.WARNING,
              "forecast watch: the stream from forecaster {0} ended ({1}); its series are"
                  + " routed again and its stream reopened with backoff",
              leg.address,
              failure == null ? "completed" : Status.fromThrowable(failure));
        }
      }
      notBefore.put(leg.address, nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(wait));
      scheduler.schedule(this::check, wait, TimeUnit.MILLISECONDS);
    }
  }

  private synchronized void answered(String address) {
    unreachable.remove(address);
  }

  private ShardRouter.View invalidated() {
    router.invalidate();
    return router.current();
  }

  private long nextBackoff(String address, long max) {
    long last = backoffMs.getOrDefault(address, 0L);
    long next = last <= 0 ? FIRST_BACKOFF_MS : Math.min(max, last * 2);
    backoffMs.put(address, next);
    return next;
  }

  private void fail(Throwable failure) {
    synchronized (this) {
      if (closed) {
        return;
      }
      closeLegs();
    }
    synchronized (delivering) {
      observer.onError(failure);
    }
  }

  private void closeLegs() {
    closed = true;
    if (checking != null) {
      checking.cancel(false);
    }
    List<Leg> open = new ArrayList<>(legs.values());
    legs.clear();
    open.forEach(Leg::cancel);
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closeLegs();
    }
    synchronized (delivering) {
      observer.onError(Status.CANCELLED.withDescription("watch closed").asRuntimeException());
    }
  }

  /** One forecaster's stream. */
  private final class Leg {
    final String address;
    final List<String> items;
    private volatile ClientCallStreamObserver<?> call;
    private volatile boolean cancelled;
    private volatile boolean delivered;

    Leg(String address, List<String> items) {
      this.address = address;
      this.items = List.copyOf(items);
    }

    void open() {
      GetForecastsRequest req = request.toBuilder().clearSeries().addAllSeries(items).build();
      ForecasterGrpc.newStub(channels.apply(address))
          .watchForecasts(
              req,
              new ClientResponseObserver<GetForecastsRequest, ForecastUpdate>() {
                @Override
                public void beforeStart(ClientCallStreamObserver<GetForecastsRequest> s) {
                  call = s;
                  if (cancelled) {
                    s.cancel("re-routed", null);
                  }
                }

                @Override
                public void onNext(ForecastUpdate u) {
                  if (cancelled) {
                    return;
                  }
                  if (!delivered) {
                    delivered = true;
                    answered(address);
                  }
                  synchronized (delivering) {
                    observer.onNext(u);
                  }
                }

                @Override
                public void onError(Throwable t) {
                  later(t);
                }

                @Override
                public void onCompleted() {
                  later(null);
                }
              });
    }

    /** Re-routes off the transport thread: that takes a nameserver call. */
    private void later(Throwable failure) {
      if (cancelled) {
        return;
      }
      try {
        scheduler.execute(() -> ended(this, failure));
      } catch (RejectedExecutionException e) {
        // The client is closing: nothing to re-route.
      }
    }

    void cancel() {
      cancelled = true;
      ClientCallStreamObserver<?> c = call;
      if (c != null) {
        c.cancel("re-routed", null);
      }
    }
  }
}
