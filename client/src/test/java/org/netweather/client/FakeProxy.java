package org.netweather.client;

import static org.netweather.client.FakeNameserver.reply;

import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicInteger;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.GetSnapshotRequest;
import org.netweather.api.v1.HostSnapshot;
import org.netweather.api.v1.ProxyGrpc;
import org.netweather.api.v1.WatchSnapshotRequest;

/** A proxy of one cluster with one host; a watch sends two snapshots and ends. */
final class FakeProxy extends ProxyGrpc.ProxyImplBase {
  final Failures failures = new Failures();
  final String cluster;
  final AtomicInteger taken = new AtomicInteger();

  FakeProxy(String cluster) {
    this.cluster = cluster;
  }

  private ClusterSnapshot snapshot() {
    return ClusterSnapshot.newBuilder()
        .setCluster(cluster)
        .setTakenMs(taken.incrementAndGet())
        .addHosts(HostSnapshot.newBuilder().setHost(cluster + "-1"))
        .build();
  }

  @Override
  public void getSnapshot(GetSnapshotRequest req, StreamObserver<ClusterSnapshot> out) {
    if (failures.failed("getSnapshot", out)) {
      return;
    }
    reply(out, snapshot());
  }

  @Override
  public void watchSnapshot(WatchSnapshotRequest req, StreamObserver<ClusterSnapshot> out) {
    out.onNext(snapshot());
    out.onNext(snapshot());
    out.onCompleted();
  }
}
