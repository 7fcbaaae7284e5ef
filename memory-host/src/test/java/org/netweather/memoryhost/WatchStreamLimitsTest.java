package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Context;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.WatchRequest;
import org.netweather.api.v1.WatchResponse;
import org.netweather.runtime.StreamLimits;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.Poll;

/** A caller cannot hold more watch streams than its limit, and a closed stream gives back all. */
class WatchStreamLimitsTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();
  private final ExecutorService watchPool = Executors.newSingleThreadExecutor();
  private MeasurementStore store;

  @AfterEach
  void tearDown() throws Exception {
    store.close();
    watchPool.shutdownNow();
  }

  /** Opens a watch in its own cancellable context; completes with how it ended. */
  private static CompletableFuture<Status> watch(
      MemoryHostGrpc.MemoryHostStub stub, List<Context.CancellableContext> contexts) {
    CompletableFuture<Status> ended = new CompletableFuture<>();
    Context.CancellableContext ctx = Context.current().withCancellation();
    contexts.add(ctx);
    ctx.run(
        () ->
            stub.watch(
                WatchRequest.newBuilder().addPatterns("*").setLiveOnly(true).build(),
                new StreamObserver<WatchResponse>() {
                  @Override
                  public void onNext(WatchResponse r) {}

                  @Override
                  public void onError(Throwable t) {
                    ended.complete(Status.fromThrowable(t));
                  }

                  @Override
                  public void onCompleted() {
                    ended.complete(Status.OK);
                  }
                }));
    return ended;
  }

  private void awaitStreams(int n) throws InterruptedException {
    assertEquals(n, Poll.until(store::watchStreams, v -> v == n, Duration.ofSeconds(5)));
  }

  /** A store and a service holding at most {@code total} watches, {@code perCaller} a caller. */
  private MemoryHostGrpc.MemoryHostStub open(int total, int perCaller) throws Exception {
    store = MeasurementStore.open(StoreOptions.defaults(dir), clock, watchPool);
    return MemoryHostGrpc.newStub(
        grpc.inProcess(
            new MemoryHostService(
                store,
                clock,
                StreamLimits.watches("memory-host", total, perCaller),
                MemoryHostService.appendStreamLimits(100, 100))));
  }

  @Test
  void perCallerLimit_refusesTheNextStream_andClosingStreamsFreesTheirSlotsAndMemory()
      throws Exception {
    MemoryHostGrpc.MemoryHostStub stub = open(100, 5);
    List<Context.CancellableContext> open = new ArrayList<>();
    List<CompletableFuture<Status>> ends = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ends.add(watch(stub, open));
    }
    awaitStreams(5);

    Status refused = watch(stub, open).get(5, TimeUnit.SECONDS);
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getCode());
    assertTrue(refused.getDescription().contains("maxWatchesPerCaller"), refused.getDescription());
    assertEquals(5, store.watchStreams(), "the refused stream holds nothing");

    open.get(0).cancel(null);
    awaitStreams(4);
    watch(stub, open);
    awaitStreams(5);

    open.forEach(c -> c.cancel(null));
    awaitStreams(0);
    for (int i = 0; i < 5; i++) {
      watch(stub, open);
    }
    awaitStreams(5);
    open.forEach(c -> c.cancel(null));
    awaitStreams(0);
  }

  @Test
  void totalLimit_refusesAnyCallerOnceTheDaemonIsFull() throws Exception {
    MemoryHostGrpc.MemoryHostStub stub = open(2, 10);
    List<Context.CancellableContext> open = new ArrayList<>();
    watch(stub, open);
    watch(stub, open);
    awaitStreams(2);
    Status refused = watch(stub, open).get(5, TimeUnit.SECONDS);
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getCode());
    assertTrue(refused.getDescription().contains("(maxWatches)"), refused.getDescription());
    open.forEach(c -> c.cancel(null));
  }
}
