package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.DeleteCliqueRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.PutCliqueRequest;
import org.netweather.api.v1.WatchCliquesRequest;
import org.netweather.api.v1.WatchCliquesResponse;
import org.netweather.testing.FakeClock;
import org.netweather.testing.GrpcCleanupExtension;

/** WatchCliques: the set at once and after each change, and the bounds on watchers. */
class WatchCliquesTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();
  private Nameserver ns;
  private NameserverService service;
  private ManagedChannel channel;

  private void start(NameserverProperties props) throws Exception {
    ns = Nameserver.open(dir, clock);
    service = new NameserverService(ns, props);
    channel = grpc.inProcess(service);
  }

  @AfterEach
  void tearDown() throws Exception {
    ns.close();
  }

  /** Collects what a watch receives; reads one message at a time only if asked to. */
  private static final class Watch
      implements ClientResponseObserver<WatchCliquesRequest, WatchCliquesResponse> {
    final List<List<String>> sets = new ArrayList<>();
    final boolean slow;
    ClientCallStreamObserver<WatchCliquesRequest> call;
    Status ended;

    Watch(boolean slow) {
      this.slow = slow;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<WatchCliquesRequest> requestStream) {
      call = requestStream;
      if (slow) {
        requestStream.disableAutoRequestWithInitial(1); // takes the first message, then stalls
      }
    }

    @Override
    public void onNext(WatchCliquesResponse r) {
      sets.add(r.getCliquesList().stream().map(Clique::getName).toList());
    }

    @Override
    public void onError(Throwable t) {
      ended = Status.fromThrowable(t);
    }

    @Override
    public void onCompleted() {
      ended = Status.OK;
    }
  }

  private Watch watch(String host, boolean slow) {
    Watch w = new Watch(slow);
    NameserverGrpc.newStub(channel)
        .watchCliques(WatchCliquesRequest.newBuilder().setHost(host).build(), w);
    return w;
  }

  private void put(String name, String... members) {
    NameserverGrpc.newBlockingStub(channel)
        .putClique(
            PutCliqueRequest.newBuilder()
                .setClique(
                    Clique.newBuilder()
                        .setName(name)
                        .addAllMembers(List.of(members))
                        .setPeriodSeconds(60))
                .build());
  }

  private void delete(String name) {
    NameserverGrpc.newBlockingStub(channel)
        .deleteClique(DeleteCliqueRequest.newBuilder().setName(name).build());
  }

  @Test
  void watch_sendsTheSetAtOnce_andAfterEveryChangeToIt_notOthers() throws Exception {
    start(NameserverProperties.defaults());
    put("c1", "a", "b");
    Watch a = watch("a", false);
    assertEquals(List.of(List.of("c1")), a.sets);
    put("c2", "a", "c");
    put("other", "x", "y"); // not a's: nothing sent
    put("c1", "b", "d"); // a leaves c1
    delete("c2");
    assertEquals(List.of(List.of("c1"), List.of("c1", "c2"), List.of("c2"), List.of()), a.sets);
    assertNull(a.ended);
  }

  @Test
  void watchesPerCaller_areBounded_andASlotIsFreedWhenAWatchIsCancelled() throws Exception {
    start(NameserverProperties.defaults().with(NameserverProperties.MAX_WATCHES_PER_CALLER, 2));
    Watch first = watch("a", false);
    watch("b", false);
    Watch third = watch("c", false);
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, third.ended.getCode());
    assertTrue(
        third.ended.getDescription().contains("maxWatchesPerCaller"), third.ended.getDescription());
    first.call.cancel("done", null);
    assertEquals(1, service.openWatches());
    Watch again = watch("c", false);
    assertNull(again.ended);
    assertEquals(2, service.openWatches());
  }

  @Test
  void slowWatcher_isEndedWithResourceExhausted_andMayResumeWithTheWholeSet() throws Exception {
    start(NameserverProperties.defaults().with(NameserverProperties.WATCH_QUEUE, 3));
    Watch slow = watch("a", true);
    int puts = 0;
    while (slow.ended == null && puts < 10) {
      put("c" + puts++, "a", "b");
    }
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, slow.ended.getCode());
    assertTrue(puts > 3, "ended after " + puts + " updates");
    assertEquals(0, service.openWatches());
    Watch resumed = watch("a", false);
    assertEquals(puts, resumed.sets.get(0).size());
  }
}
