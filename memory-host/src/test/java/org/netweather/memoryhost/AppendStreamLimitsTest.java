package org.netweather.memoryhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.net.InetSocketAddress;
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
import org.netweather.api.v1.AppendStreamRequest;
import org.netweather.api.v1.AppendStreamResponse;
import org.netweather.api.v1.ListSeriesRequest;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.runtime.StreamLimits;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;
import org.netweather.testing.Poll;

/**
 * Append streams over a real socket are bounded per caller and in all; a stream gives its slot back
 * however it ends (answered and completed, cancelled), and a refused one stores nothing.
 */
class AppendStreamLimitsTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();
  private final ExecutorService watchPool = Executors.newSingleThreadExecutor();
  private MeasurementStore store;
  private MemoryHostService service;
  private MemoryHostGrpc.MemoryHostStub stub;
  private MemoryHostGrpc.MemoryHostBlockingStub blocking;

  private void open(int maxTotal, int maxPerCaller) throws Exception {
    store = MeasurementStore.open(StoreOptions.defaults(dir), clock, watchPool);
    service =
        new MemoryHostService(
            store,
            clock,
            StreamLimits.watches("memory-host", 100, 100),
            MemoryHostService.appendStreamLimits(maxTotal, maxPerCaller));
    var server =
        grpc.register(
            NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(service)
                .build()
                .start());
    ManagedChannel ch =
        grpc.register(
            NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build());
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

  /** One open stream: its answers and how it ended. */
  private static final class Stream
      implements ClientResponseObserver<AppendStreamRequest, AppendStreamResponse> {
    final List<AppendStreamResponse> answers = new ArrayList<>();
    final CompletableFuture<Status> ended = new CompletableFuture<>();
    ClientCallStreamObserver<AppendStreamRequest> requests;

    @Override
    public void beforeStart(ClientCallStreamObserver<AppendStreamRequest> requests) {
      this.requests = requests;
    }

    @Override
    public synchronized void onNext(AppendStreamResponse r) {
      answers.add(r);
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

  private Stream stream() {
    Stream s = new Stream();
    stub.appendStream(s);
    return s;
  }

  private AppendStreamRequest request(String series) {
    return AppendStreamRequest.newBuilder()
        .setSeq(1)
        .addBatches(
            SeriesPoints.newBuilder()
                .setSeries(series)
                .addPoints(
                    Measurement.newBuilder().setTimestampMs(clock.millis() - 1_000).setValue(0.5)))
        .build();
  }

  private void awaitOpen(int n) throws InterruptedException {
    assertEquals(n, Poll.until(service::appendStreams, v -> v == n, Duration.ofSeconds(5)));
  }

  @Test
  void perCallerLimit_refusesTheNextStream_storingNothing_andEveryWayOfEndingFreesASlot()
      throws Exception {
    open(100, 3);
    List<Stream> open = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      open.add(stream());
    }
    // A stream is counted when its call starts, which its first message makes sure of.
    for (Stream s : open) {
      s.requests.onNext(request("cpu.availability:ok" + open.indexOf(s)));
    }
    awaitOpen(3);

    Stream refused = stream();
    refused.requests.onNext(request("cpu.availability:refused"));
    Status status = refused.ended.get(5, TimeUnit.SECONDS);
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, status.getCode());
    assertTrue(
        status.getDescription().contains("(maxAppendStreamsPerCaller)"), status.getDescription());
    assertEquals(3, service.appendStreams(), "the refused stream holds no slot");

    // Completed by the caller: answered, then closed by the server.
    open.get(0).requests.onCompleted();
    assertEquals(Status.OK, open.get(0).ended.get(5, TimeUnit.SECONDS));
    awaitOpen(2);
    // Cancelled by the caller.
    open.get(1).requests.cancel("test", null);
    awaitOpen(1);
    // The freed slots are taken again.
    Stream again = stream();
    again.requests.onNext(request("cpu.availability:again"));
    awaitOpen(2);
    again.requests.onCompleted();
    open.get(2).requests.onCompleted();
    again.ended.get(5, TimeUnit.SECONDS);
    open.get(2).ended.get(5, TimeUnit.SECONDS);
    awaitOpen(0);

    List<String> stored = new ArrayList<>();
    blocking
        .listSeries(ListSeriesRequest.newBuilder().setPattern("*").build())
        .getSeriesList()
        .forEach(s -> stored.add(s.getSeries()));
    assertEquals(
        List.of(
            "cpu.availability:again",
            "cpu.availability:ok0",
            "cpu.availability:ok1",
            "cpu.availability:ok2"),
        stored,
        "nothing of the refused stream is stored");
  }

  @Test
  void totalLimit_refusesEveryCallerOnceTheMemoryHostIsFull() throws Exception {
    open(2, 100);
    Stream a = stream();
    Stream b = stream();
    a.requests.onNext(request("cpu.availability:a"));
    b.requests.onNext(request("cpu.availability:b"));
    awaitOpen(2);
    Stream refused = stream();
    refused.requests.onNext(request("cpu.availability:c"));
    Status status = refused.ended.get(5, TimeUnit.SECONDS);
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, status.getCode());
    assertTrue(status.getDescription().contains("(maxAppendStreams)"), status.getDescription());
    a.requests.onCompleted();
    b.requests.onCompleted();
    a.ended.get(5, TimeUnit.SECONDS);
    b.ended.get(5, TimeUnit.SECONDS);
    awaitOpen(0);
  }
}
