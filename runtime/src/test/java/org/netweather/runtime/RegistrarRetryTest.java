package org.netweather.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.HeartbeatRequest;
import org.netweather.api.v1.HeartbeatResponse;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.RegisterResponse;
import org.netweather.api.v1.Registration;
import org.netweather.client.FailoverChannel;
import org.netweather.testing.GrpcCleanupExtension;

/**
 * A failed heartbeat is retried within seconds, not a whole period later (issue 29, item 4): the
 * nameserver (a fake) stops answering for two heartbeat periods and comes back; the registrar's
 * scheduler records the delays it is asked for and runs each task when the test says.
 */
class RegistrarRetryTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  private final ManualScheduler scheduler = new ManualScheduler();
  private volatile boolean down;
  private final AtomicInteger heartbeats = new AtomicInteger();
  private final AtomicInteger registers = new AtomicInteger();
  private volatile Registration lastRegistered;
  private final AtomicLong serverTime = new AtomicLong(1_790_000_000_000L);

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  private final NameserverGrpc.NameserverImplBase nameserver =
      new NameserverGrpc.NameserverImplBase() {
        @Override
        public void register(RegisterRequest req, StreamObserver<RegisterResponse> out) {
          if (down) {
            out.onError(Status.UNAVAILABLE.withDescription("stalled").asRuntimeException());
            return;
          }
          registers.incrementAndGet();
          lastRegistered = req.getRegistration();
          out.onNext(
              RegisterResponse.newBuilder()
                  .setLeaseId("L")
                  .setServerTimeMs(serverTime.get())
                  .build());
          out.onCompleted();
        }

        @Override
        public void heartbeat(HeartbeatRequest req, StreamObserver<HeartbeatResponse> out) {
          if (down) {
            out.onError(Status.UNAVAILABLE.withDescription("stalled").asRuntimeException());
            return;
          }
          heartbeats.incrementAndGet();
          out.onNext(HeartbeatResponse.newBuilder().setServerTimeMs(serverTime.get()).build());
          out.onCompleted();
        }
      };

  @Test
  void failedHeartbeat_isRetriedWithinSeconds_andThePeriodResumesOnceItAnswers() throws Exception {
    List<Long> heardServerTimes = new ArrayList<>();
    Registrar r =
        new Registrar(
                grpc.inProcess(nameserver),
                Registration.newBuilder().setName("sensor@alpha").setKind("sensor").build(),
                Duration.ofSeconds(180),
                scheduler,
                false)
            .serverTime((t, rtt) -> heardServerTimes.add(t));
    r.start();
    assertEquals(1, registers.get());
    assertEquals(List.of(60_000L), scheduler.delays, "next heartbeat one period on");
    assertEquals(List.of(serverTime.get()), heardServerTimes, "the server's clock is heard");

    scheduler.runNext();
    assertEquals(1, heartbeats.get());

    down = true; // for two heartbeat periods' worth of retries
    scheduler.delays.clear();
    for (int i = 0; i < 6; i++) {
      scheduler.runNext();
    }
    assertEquals(
        List.of(1_000L, 2_000L, 4_000L, 5_000L, 5_000L, 5_000L),
        scheduler.delays,
        "retries back off from 1 s to at most 5 s");

    down = false;
    serverTime.addAndGet(120_000);
    scheduler.delays.clear();
    scheduler.runNext();
    assertEquals(2, heartbeats.get(), "renewed on the first try after it answers");
    assertEquals(List.of(60_000L), scheduler.delays, "and back to one period");
    assertEquals(serverTime.get(), heardServerTimes.get(heardServerTimes.size() - 1));
    r.close();
    assertEquals(0, scheduler.pending(), "nothing scheduled after close");
  }

  @Test
  void update_registersTheNewRecordAtOnce_thenHeartbeatsAgain() throws Exception {
    Registration base = Registration.newBuilder().setName("sensor@alpha").setKind("sensor").build();
    Registrar r =
        new Registrar(grpc.inProcess(nameserver), base, Duration.ofSeconds(180), scheduler, false);
    r.start();
    Registration changed = base.toBuilder().putAttributes("clock", "corrected").build();
    r.update(changed);
    scheduler.delays.clear();
    scheduler.runLast(); // the try update() asked for, at once
    assertEquals(2, registers.get(), "a changed record needs a Register");
    assertEquals(changed, lastRegistered);
    scheduler.runNext(); // the periodic one
    assertEquals(1, heartbeats.get(), "then the lease is only renewed");
    assertEquals(2, registers.get());
    r.close();
  }

  @Test
  void nameserverList_firstDown_registersAndHeartbeatsAtTheNextWithinTheSameBeat()
      throws Exception {
    String dead = GrpcCleanupExtension.newName(); // never started: every call UNAVAILABLE
    String live = GrpcCleanupExtension.newName();
    grpc.register(GrpcCleanupExtension.serverBuilder(live).addService(nameserver).build().start());
    ManagedChannel list =
        grpc.register(
            FailoverChannel.open(
                dead + ":0," + live + ":0",
                a ->
                    InProcessChannelBuilder.forName(a.substring(0, a.lastIndexOf(':')))
                        .directExecutor()
                        .build()));
    Registrar r =
        new Registrar(
            list,
            Registration.newBuilder().setName("sensor@alpha").setKind("sensor").build(),
            Duration.ofSeconds(180),
            scheduler,
            false);
    r.start();
    assertEquals(1, registers.get(), "registered at the second nameserver on the first beat");
    assertEquals(List.of(60_000L), scheduler.delays, "no retry needed: the next beat a period on");
    scheduler.runNext();
    assertEquals(1, heartbeats.get(), "and heartbeats there");
    r.close();
  }

  /** Records what it is asked to schedule and runs it only when told; runs nothing by itself. */
  private static final class ManualScheduler extends ScheduledThreadPoolExecutor {
    final List<Long> delays = new ArrayList<>();
    private final Deque<Runnable> tasks = new ArrayDeque<>();

    ManualScheduler() {
      super(1);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
      delays.add(unit.toMillis(delay));
      tasks.add(task);
      Runnable self = task;
      ScheduledFuture<?> placeholder = super.schedule(() -> {}, 1, TimeUnit.DAYS);
      return new CancelOnly(placeholder, () -> tasks.remove(self));
    }

    void runNext() {
      tasks.removeFirst().run();
    }

    void runLast() {
      tasks.removeLast().run();
    }

    int pending() {
      return tasks.size();
    }
  }

  /** A future whose cancel also forgets the manual task. */
  private static final class CancelOnly implements ScheduledFuture<Object> {
    private final ScheduledFuture<?> inner;
    private final Runnable onCancel;

    CancelOnly(ScheduledFuture<?> inner, Runnable onCancel) {
      this.inner = inner;
      this.onCancel = onCancel;
    }

    @Override
    public boolean cancel(boolean mayInterrupt) {
      onCancel.run();
      return inner.cancel(mayInterrupt);
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return inner.getDelay(unit);
    }

    @Override
    public int compareTo(java.util.concurrent.Delayed o) {
      return inner.compareTo(o);
    }

    @Override
    public boolean isCancelled() {
      return inner.isCancelled();
    }

    @Override
    public boolean isDone() {
      return inner.isDone();
    }

    @Override
    public Object get() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      throw new UnsupportedOperationException();
    }
  }
}
