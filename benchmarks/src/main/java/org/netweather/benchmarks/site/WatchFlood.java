package org.netweather.benchmarks.site;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;

/**
 * A greedy caller for testbed/faults: opens {@code N} measurement watches on one memory-host from
 * one address, live only, and holds those the memory-host lets it keep until {@code STOP_FILE}
 * exists. Prints, once the answers have settled, {@code watch flood: asked N, held H, refused R
 * (CODE ...)}; a watch counts as held while the memory-host has not ended it.
 *
 * <pre>
 *   java -cp ... org.netweather.benchmarks.site.WatchFlood HOST:PORT N STOP_FILE
 * </pre>
 */
public final class WatchFlood {
  private WatchFlood() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: WatchFlood HOST:PORT N STOP_FILE");
      System.exit(2);
    }
    String target = args[0];
    int n = Integer.parseInt(args[1]);
    Path stop = Path.of(args[2]);
    ManagedChannel channel = NettyChannelBuilder.forTarget(target).usePlaintext().build();
    // Connected first: a watch waiting for a connection would look held.
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (channel.getState(true) != ConnectivityState.READY) {
      if (System.nanoTime() > deadline) {
        System.out.println("watch flood: could not connect to " + target);
        System.exit(1);
      }
      Thread.sleep(100);
    }
    MemoryHostGrpc.MemoryHostStub stub = MemoryHostGrpc.newStub(channel);
    AtomicInteger ended = new AtomicInteger();
    Map<Status.Code, Integer> codes = new ConcurrentHashMap<>();
    List<StreamObserver<WatchResponse>> observers = new ArrayList<>();
    WatchRequest request = WatchRequest.newBuilder().addPatterns("*").setLiveOnly(true).build();
    for (int i = 0; i < n; i++) {
      StreamObserver<WatchResponse> o =
          new StreamObserver<>() {
            @Override
            public void onNext(WatchResponse value) {}

            @Override
            public void onError(Throwable t) {
              codes.merge(Status.fromThrowable(t).getCode(), 1, Integer::sum);
              ended.incrementAndGet();
            }

            @Override
            public void onCompleted() {
              codes.merge(Status.Code.OK, 1, Integer::sum);
              ended.incrementAndGet();
            }
          };
      observers.add(o);
      stub.watch(request, o);
    }
    // Refusals come back at once; what is still open after a few quiet seconds is held.
    int last = -1;
    while (ended.get() != last) {
      last = ended.get();
      Thread.sleep(3_000);
    }
    System.out.printf(
        "watch flood: asked %d, held %d, refused %d %s%n",
        n, n - ended.get(), ended.get(), new TreeMap<>(codes));
    System.out.flush();
    while (!Files.exists(stop)) {
      Thread.sleep(200);
    }
    channel.shutdownNow();
    System.exit(0);
  }
}
