package org.netweather.proxy;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.ForecastUpdate;
import org.netweather.api.v1.GetForecastRequest;
import org.netweather.client.NetWeatherClient;
import org.netweather.client.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the forecasts of the cluster's series into a {@link ClusterCache}, through the client
 * library's forecast watch, which finds the forecasters through the nameserver.
 *
 * <p>With one forecaster that is one stream, re-established with backoff when it breaks (a
 * forecaster restart, say), looking the forecaster up again each time. On a site whose forecasters
 * share the shards it is one stream per forecaster owning some of the cluster's hosts (each host's
 * patterns go to the owner of its shard, see {@code docs/routing.md}), which the client re-routes
 * itself when a shard moves or the forecaster list changes; each new stream begins with the current
 * forecasts of its series, so the snapshot is complete again once the new owners serve them.
 */
final class ForecastFollower implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ForecastFollower.class);
  private static final long FIRST_BACKOFF_MS = 200;
  private static final long MAX_BACKOFF_MS = 10_000;

  private final NetWeatherClient client;
  private final ClusterCache cache;
  private final ScheduledExecutorService scheduler;
  private Subscription stream;
  private volatile long backoffMs = FIRST_BACKOFF_MS;
  private boolean closed;
  private long generation;

  /**
   * @param client reaches the nameserver and the forecasters; owned, closed with this follower
   */
  ForecastFollower(
      NetWeatherClient client, ClusterCache cache, ScheduledExecutorService scheduler) {
    this.client = client;
    this.cache = cache;
    this.scheduler = scheduler;
  }

  /** (Re)subscribes with the cache's current patterns. */
  synchronized void restart() {
    if (closed) {
      return;
    }
    long gen = ++generation;
    if (stream != null) {
      stream.close();
      stream = null;
    }
    List<String> patterns = cache.patterns();
    if (patterns.isEmpty()) {
      return;
    }
    try {
      stream = client.watchForecasts(patterns, Criterion.CRITERION_UNKNOWN, observer(gen));
    } catch (StatusRuntimeException e) {
      retry(gen, "no forecaster: " + e.getStatus().getDescription());
    }
  }

  private StreamObserver<ForecastUpdate> observer(long gen) {
    return new StreamObserver<>() {
      @Override
      public void onNext(ForecastUpdate u) {
        backoffMs = FIRST_BACKOFF_MS;
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
    };
  }

  private synchronized void retry(long gen, String why) {
    if (closed || gen != generation) {
      return;
    }
    long wait = backoffMs;
    log.info("following the forecasters: {}; retrying in {} ms", why, wait);
    scheduler.schedule(
        () -> {
          synchronized (this) {
            if (gen == generation) {
              restart();
            }
          }
        },
        wait,
        TimeUnit.MILLISECONDS);
    backoffMs = Math.min(MAX_BACKOFF_MS, wait * 2);
  }

  /** One forecast read from the forecaster serving it, for cache refreshes; null if none can. */
  Forecast fetch(String series) {
    try {
      return client.forecast(GetForecastRequest.newBuilder().setSeries(series).build());
    } catch (StatusRuntimeException e) {
      return null;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (stream != null) {
      stream.close();
    }
    client.close();
  }
}
