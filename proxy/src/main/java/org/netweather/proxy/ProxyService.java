package org.netweather.proxy;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.GetSnapshotRequest;
import org.netweather.api.v1.ProxyGrpc;
import org.netweather.api.v1.WatchSnapshotRequest;
import org.netweather.model.SeriesName;
import org.netweather.runtime.Statuses;

/** The {@code netweather.v1.Proxy} gRPC service over a {@link ClusterCache}. */
public final class ProxyService extends ProxyGrpc.ProxyImplBase {
  static final long MIN_WATCH_INTERVAL_MS = 100;

  private final ClusterCache cache;
  private final ScheduledExecutorService scheduler;

  public ProxyService(ClusterCache cache, ScheduledExecutorService scheduler) {
    this.cache = cache;
    this.scheduler = scheduler;
  }

  private void checkCluster(String cluster) {
    if (cluster.isEmpty()) {
      return;
    }
    String problem = SeriesName.nameProblem("cluster", cluster);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    if (!cluster.equals(cache.cluster())) {
      throw Statuses.notFound("this proxy serves cluster '" + cache.cluster() + "', not '"
          + cluster + "'");
    }
  }

  @Override
  public void getSnapshot(GetSnapshotRequest req, StreamObserver<ClusterSnapshot> out) {
    Statuses.respond(out, () -> {
      checkCluster(req.getCluster());
      return cache.snapshot();
    });
  }

  @Override
  public void watchSnapshot(WatchSnapshotRequest req, StreamObserver<ClusterSnapshot> out) {
    try {
      checkCluster(req.getCluster());
    } catch (RuntimeException e) {
      out.onError(Statuses.toStatus(e));
      return;
    }
    ServerCallStreamObserver<ClusterSnapshot> call = (ServerCallStreamObserver<ClusterSnapshot>) out;
    long interval = Math.max(MIN_WATCH_INTERVAL_MS, req.getMinIntervalMs() == 0 ? 1000
        : req.getMinIntervalMs());
    long[] sent = {-1};
    Runnable tick = () -> {
      // The data version of the snapshot readers get now: send each version once.
      long v = cache.snapshotVersion();
      if (v != sent[0] && call.isReady() && !call.isCancelled()) {
        synchronized (call) {
          call.onNext(cache.snapshot());
        }
        sent[0] = v;
      }
    };
    ScheduledFuture<?> task = scheduler.scheduleWithFixedDelay(tick, 0, interval,
        TimeUnit.MILLISECONDS);
    call.setOnCancelHandler(() -> task.cancel(false));
  }
}
