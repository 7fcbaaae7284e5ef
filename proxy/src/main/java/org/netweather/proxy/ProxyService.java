package org.netweather.proxy;

import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.GetSnapshotRequest;
import org.netweather.api.v1.ProxyGrpc;
import org.netweather.api.v1.WatchSnapshotRequest;
import org.netweather.model.SeriesName;
import org.netweather.runtime.Statuses;

/**
 * The {@code netweather.v1.Proxy} gRPC service over a {@link ClusterCache}.
 *
 * <p>Bound by hand rather than through the generated base class: the methods are those of {@code
 * proxy.proto}, but replies are written from the cache's prebuilt wire form ({@link
 * EncodedSnapshot}) instead of being serialized again for every reader.
 */
public final class ProxyService implements BindableService {
  static final long MIN_WATCH_INTERVAL_MS = 100;

  private static final MethodDescriptor<GetSnapshotRequest, EncodedSnapshot> GET_SNAPSHOT =
      ProxyGrpc.getGetSnapshotMethod().toBuilder(
              ProxyGrpc.getGetSnapshotMethod().getRequestMarshaller(), EncodedSnapshot.MARSHALLER)
          .build();
  private static final MethodDescriptor<WatchSnapshotRequest, EncodedSnapshot> WATCH_SNAPSHOT =
      ProxyGrpc.getWatchSnapshotMethod().toBuilder(
              ProxyGrpc.getWatchSnapshotMethod().getRequestMarshaller(), EncodedSnapshot.MARSHALLER)
          .build();
  // Same name and schema as the generated descriptor, so reflection still describes it.
  private static final ServiceDescriptor SERVICE =
      ServiceDescriptor.newBuilder(ProxyGrpc.SERVICE_NAME)
          .setSchemaDescriptor(ProxyGrpc.getServiceDescriptor().getSchemaDescriptor())
          .addMethod(GET_SNAPSHOT)
          .addMethod(WATCH_SNAPSHOT)
          .build();

  private final ClusterCache cache;
  private final ScheduledExecutorService scheduler;

  public ProxyService(ClusterCache cache, ScheduledExecutorService scheduler) {
    this.cache = cache;
    this.scheduler = scheduler;
  }

  @Override
  public ServerServiceDefinition bindService() {
    return ServerServiceDefinition.builder(SERVICE)
        .addMethod(GET_SNAPSHOT, ServerCalls.asyncUnaryCall(this::getSnapshot))
        .addMethod(WATCH_SNAPSHOT, ServerCalls.asyncServerStreamingCall(this::watchSnapshot))
        .build();
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
      throw Statuses.notFound(
          "this proxy serves cluster '" + cache.cluster() + "', not '" + cluster + "'");
    }
  }

  void getSnapshot(GetSnapshotRequest req, StreamObserver<EncodedSnapshot> out) {
    Statuses.respond(
        out,
        () -> {
          checkCluster(req.getCluster());
          return cache.encoded();
        });
  }

  void watchSnapshot(WatchSnapshotRequest req, StreamObserver<EncodedSnapshot> out) {
    try {
      checkCluster(req.getCluster());
    } catch (RuntimeException e) {
      out.onError(Statuses.toStatus(e));
      return;
    }
    ServerCallStreamObserver<EncodedSnapshot> call =
        (ServerCallStreamObserver<EncodedSnapshot>) out;
    long interval =
        Math.max(
            MIN_WATCH_INTERVAL_MS, req.getMinIntervalMs() == 0 ? 1000 : req.getMinIntervalMs());
    long[] sent = {-1};
    Runnable tick =
        () -> {
          // Send each data version once.
          EncodedSnapshot s = cache.encoded();
          if (s.version() != sent[0] && call.isReady() && !call.isCancelled()) {
            synchronized (call) {
              call.onNext(s);
            }
            sent[0] = s.version();
          }
        };
    ScheduledFuture<?> task =
        scheduler.scheduleWithFixedDelay(tick, 0, interval, TimeUnit.MILLISECONDS);
    call.setOnCancelHandler(() -> task.cancel(false));
  }
}
