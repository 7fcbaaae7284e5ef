package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendStreamRequest;
import org.netweather.api.v1.AppendStreamResponse;
import org.netweather.api.v1.FetchRequest;
import org.netweather.api.v1.ListSeriesRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;

/**
 * AppendStream over a real socket: answers by sequence number, errors per request, flow control.
 */
class AppendStreamTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();
  private final ExecutorService watchPool = Executors.newSingleThreadExecutor();
  private MeasurementStore store;
  private MemoryHostGrpc.MemoryHostStub stub;
  private MemoryHostGrpc.MemoryHostBlockingStub blocking;

  private void open(StoreOptions options, int clientWindowBytes) throws Exception {
    store = MeasurementStore.open(options, clock, watchPool);
    var server =
        grpc.register(
            NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new MemoryHostService(store, clock))
                .build()
                .start());
    ManagedChannel ch =
        grpc.register(
            NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                .usePlaintext()
                .flowControlWindow(clientWindowBytes)
                .build());
    stub = MemoryHostGrpc.newStub(ch);
    blocking = MemoryHostGrpc.newBlockingStub(ch);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (store != null) {
      store.close();
    }
    watchPool.shutdownNow();
  }

  /** The answers of one stream, by sequence number, and how it ended. */
  private static final class Answers
      implements ClientResponseObserver<AppendStreamRequest, AppendStreamResponse> {
    final Map<Long, AppendStreamResponse> bySeq = new ConcurrentHashMap<>();
    final CompletableFuture<Status> ended = new CompletableFuture<>();
    final boolean reading;
    ClientCallStreamObserver<AppendStreamRequest> requests;

    Answers(boolean reading) {
      this.reading = reading;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<AppendStreamRequest> requests) {
      this.requests = requests;
      if (!reading) {
        requests.disableAutoRequestWithInitial(0);
      }
    }

    @Override
    public void onNext(AppendStreamResponse r) {
      bySeq.put(r.getSeq(), r);
    }

    @Override
    public void onError(Throwable t) {
      ended.complete(Status.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
      ended.complete(Status.OK);
    }
  }

  private long t(int seconds) {
    return clock.millis() - 3_600_000 + seconds * 1000L;
  }

  private static AppendStreamRequest request(long seq, String series, long t, double... values) {
    SeriesPoints.Builder b = SeriesPoints.newBuilder().setSeries(series);
    for (int i = 0; i < values.length; i++) {
      b.addPoints(Measurement.newBuilder().setTimestampMs(t + i * 1000L).setValue(values[i]));
    }
    return AppendStreamRequest.newBuilder().setSeq(seq).addBatches(b).build();
  }

  private int stored(String series) {
    return blocking
        .fetch(FetchRequest.newBuilder().setSeries(series).setLast(100_000).build())
        .getPointsCount();
  }

  @Test
  void eachRequestIsAnsweredBySeq_andARefusedOneEndsOnlyItself() throws Exception {
    open(StoreOptions.defaults(dir), 1 << 20);
    Answers answers = new Answers(true);
    StreamObserver<AppendStreamRequest> out = stub.appendStream(answers);
    out.onNext(request(10, "cpu.availability:alpha", t(1), 0.5, 0.6));
    out.onNext(request(11, "cpu.availability:beta", t(1), 0.5, Double.NaN));
    out.onNext(request(12, "memory.free:alpha", t(1), 1024));
    out.onNext(request(13, "cpu.availability:alpha", t(1), 0.5, 0.6)); // a re-send
    out.onCompleted();

    assertEquals(Status.Code.OK, answers.ended.get(10, TimeUnit.SECONDS).getCode());
    assertEquals(4, answers.bySeq.size());
    assertEquals(2, answers.bySeq.get(10L).getStored());
    assertEquals(0, answers.bySeq.get(10L).getCode());
    AppendStreamResponse refused = answers.bySeq.get(11L);
    assertEquals(Status.Code.INVALID_ARGUMENT.value(), refused.getCode());
    assertTrue(refused.getMessage().contains("cpu.availability:beta"), refused.getMessage());
    assertEquals(0, refused.getStored());
    assertEquals(1, answers.bySeq.get(12L).getStored());
    assertEquals(0, answers.bySeq.get(13L).getStored());
    assertEquals(2, answers.bySeq.get(13L).getDuplicates());

    assertEquals(2, stored("cpu.availability:alpha"));
    assertEquals(1, stored("memory.free:alpha"));
    assertEquals(
        2,
        blocking.listSeries(ListSeriesRequest.getDefaultInstance()).getSeriesCount(),
        "the refused request created no series");
  }

  @Test
  void aLimitIsAnsweredAsResourceExhausted_andTheStreamGoesOn() throws Exception {
    open(StoreOptions.defaults(dir).withLimits(1000, 2, 1000), 1 << 20);
    Answers answers = new Answers(true);
    StreamObserver<AppendStreamRequest> out = stub.appendStream(answers);
    AppendStreamRequest three =
        request(1, "user.x:a", t(1), 1).toBuilder()
            .addAllBatches(request(0, "user.x:b", t(1), 1).getBatchesList())
            .addAllBatches(request(0, "user.x:c", t(1), 1).getBatchesList())
            .build();
    out.onNext(three);
    out.onNext(request(2, "user.x:a", t(1), 1));
    out.onCompleted();

    assertEquals(Status.Code.OK, answers.ended.get(10, TimeUnit.SECONDS).getCode());
    AppendStreamResponse refused = answers.bySeq.get(1L);
    assertEquals(Status.Code.RESOURCE_EXHAUSTED.value(), refused.getCode());
    assertTrue(refused.getMessage().contains("maxNewSeriesPerCall"), refused.getMessage());
    assertEquals(1, answers.bySeq.get(2L).getStored());
    assertEquals(1, blocking.listSeries(ListSeriesRequest.getDefaultInstance()).getSeriesCount());
  }

  @Test
  void aCallerThatReadsNoAnswers_getsNoMoreTaken_untilItReadsThem() throws Exception {
    // A small client window: the answers it does not read soon stop the server's writes.
    open(StoreOptions.defaults(dir), 16 * 1024);
    Answers answers = new Answers(false);
    StreamObserver<AppendStreamRequest> out = stub.appendStream(answers);
    int sent = 8_000; // within the 10 000 raw points a series keeps
    for (int i = 0; i < sent; i++) {
      out.onNext(request(i, "cpu.availability:alpha", t(0) + i, 0.5));
    }
    // Wait until the store stops growing: the server has stopped taking requests.
    long before = -1;
    long now = store.count("cpu.availability:alpha");
    while (now != before) {
      Thread.sleep(500);
      before = now;
      now = store.count("cpu.availability:alpha");
    }
    // What the server took is its window plus the answers that fit in the transport's buffers
    // (about 2 500 here), not all that was sent.
    assertTrue(now > 0 && now < 6_000, "taken while no answer was read: " + now);

    answers.requests.request(Integer.MAX_VALUE);
    out.onCompleted();
    assertEquals(Status.Code.OK, answers.ended.get(30, TimeUnit.SECONDS).getCode());
    assertEquals(sent, answers.bySeq.size());
    assertEquals(sent, stored("cpu.availability:alpha"));
  }
}
