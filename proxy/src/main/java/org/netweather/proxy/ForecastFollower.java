package org.netweather.proxy;

import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.api.v1.GetForecastsRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the forecaster's update stream for the cluster's series into a {@link ClusterCache},
 * finding the forecaster through the nameserver. A broken stream (a forecaster restart, say) is
 * re-established with backoff, looking the forecaster up again each time.
 */
final class ForecastFollower implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ForecastFollower.class);
  private static final long MAX_BACKOFF_MS = 10_000;

  private final NameserverGrpc.NameserverBlockingStub nameserver;
  private final Function<String, ManagedChannel> channels;
  private final ClusterCache cache;
  private final ScheduledExecutorService scheduler;
  private final Map<String, ManagedChannel> open = new HashMap<>();
  private volatile ForecasterGrpc.ForecasterBlockingStub current;
  private Context.CancellableContext stream;
  private long backoffMs = 200;
  private boolean closed;
  private long generation;

  ForecastFollower(
      Channel nameserver,
      Function<String, ManagedChannel> channels,
      ClusterCache cache,
      ScheduledExecutorService scheduler) {
    this.nameserver = NameserverGrpc.newBlockingStub(nameserver);
    this.channels = channels;
    this.cache = cache;
    this.scheduler = scheduler;
  }

  /** (Re)subscribes with the cache's current patterns. */
  synchronized void restart() {
    if (closed) {
      return;
    }
    if (stream != null) {
      stream.cancel(null);
      stream = null;
    }
    long gen = ++generation;
    List<String> patterns = cache.patterns();
    if (patterns.isEmpty()) {
      return;
    }
    Channel ch;
    try {
      ch = forecasterChannel();
    } catch (StatusRuntimeException e) {
      retry(gen, "no forecaster: " + e.getStatus().getDescription());
      return;
    }
    current = ForecasterGrpc.newBlockingStub(ch);
    Context.CancellableContext ctx = Context.current().withCancellation();
    stream = ctx;
    ctx.run(
        () ->
            ForecasterGrpc.newStub(ch)
                .watchForecasts(
                    GetForecastsRequest.newBuilder().addAllSeries(patterns).build(),
                    new StreamObserver<ForecastUpdate>() {
                      @Override
                      public void onNext(ForecastUpdate u) {
                        backoffMs = 200;
                        cache.put(u.getForecast());
                      }

                      @Override
                      public void onError(Throwable t) {
                        if (Status.fromThrowable(t).getCode() != Status.Code.CANCELLED) {
                          retry(gen, "stream failed: " + Status.fromThrowable(t));
                        }
                      }

                      @Override
                      public void onCompleted() {
                        retry(gen, "stream ended");
                      }
                    }));
  }

  private Channel forecasterChannel() {
    List<Registration> found =
        nameserver
            .withDeadlineAfter(3, TimeUnit.SECONDS)
            .search(SearchRequest.newBuilder().setFilter("(kind=forecaster)").build())
            .getRegistrationsList();
    if (found.isEmpty()) {
      throw Status.UNAVAILABLE.withDescription("none registered").asRuntimeException();
    }
    return open.computeIfAbsent(found.get(0).getAddress(), channels);
  }

  private synchronized void retry(long gen, String why) {
    if (closed || gen != generation) {
      return;
    }
    log.info("following the forecaster: {}; retrying in {} ms", why, backoffMs);
    scheduler.schedule(
        () -> {
          synchronized (this) {
            if (gen == generation) {
              restart();
            }
          }
        },
        backoffMs,
        TimeUnit.MILLISECONDS);
    backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
  }

  /** One forecast read directly, for cache refreshes; null if unknown or unreachable. */
  Forecast fetch(String series) {
    ForecasterGrpc.ForecasterBlockingStub stub = current;
    if (stub == null) {
      return null;
    }
    try {
      return stub.withDeadlineAfter(2, TimeUnit.SECONDS)
          .getForecast(GetForecastRequest.newBuilder().setSeries(series).build());
    } catch (StatusRuntimeException e) {
      return null;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (stream != null) {
      stream.cancel(null);
    }
    open.values().forEach(ManagedChannel::shutdownNow);
  }
}
