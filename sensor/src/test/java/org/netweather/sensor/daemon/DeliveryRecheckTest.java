package org.netweather.sensor.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.AssignSeriesRequest;
import org.netweather.api.v1.AssignSeriesResponse;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.client.NetWeatherClient;
import org.netweather.sensor.spool.Spool;
import org.netweather.sensor.spool.SpoolOptions;
import org.netweather.testing.GrpcCleanupExtension;

/**
 * A shard placement moves while a memory-host still takes appends: the sensor asks again where a
 * series goes once the answer's {@code recheck_after_ms} has passed (on its injected clock), and
 * keeps the answer it has while the nameserver cannot be asked.
 */
class DeliveryRecheckTest {
  private static final String SERIES = "cpu.availability:alpha";
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final AtomicLong now = new AtomicLong(1_800_000_000_000L);
  private final AtomicReference<String> placedOn = new AtomicReference<>("m1");
  private final AtomicBoolean nameserverDown = new AtomicBoolean();
  private final AtomicInteger asked = new AtomicInteger();
  private final List<String> appendsAt = new CopyOnWriteArrayList<>();
  private final ConcurrentHashMap<String, String> inProcessName = new ConcurrentHashMap<>();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @Test
  void aMovedPlacement_isFollowedAfterTheRecheckTime_andAnUnreachableNameserverKeepsTheOldAnswer()
      throws Exception {
    memoryHost("m1");
    memoryHost("m2");
    String ns = nameserver();
    try (Spool spool = Spool.open(dir.resolve("spool"), SpoolOptions.defaults());
        NetWeatherClient client =
            NetWeatherClient.forChannel(grpc.channel(ns))
                .maxAttempts(1)
                .appendStreams(false)
                .channels(a -> InProcessChannelBuilder.forName(inProcessName.get(a)).build())
                .build()) {
      Delivery delivery = new Delivery(spool, client, scheduler, now::get, true);
      deliverOne(spool, delivery);
      assertEquals(List.of("m1:1"), appendsAt);

      placedOn.set("m2"); // an operator moved the shard; m1 still takes appends
      now.addAndGet(59_000);
      deliverOne(spool, delivery);
      assertEquals(List.of("m1:1", "m1:1"), appendsAt, "the answer holds for 60 s");
      assertEquals(1, asked.get());

      now.addAndGet(1_000);
      deliverOne(spool, delivery);
      assertEquals("m2:1", appendsAt.get(2), "asked again and followed the move");
      assertEquals(2, asked.get());

      nameserverDown.set(true);
      now.addAndGet(60_000);
      deliverOne(spool, delivery);
      assertEquals("m2:1", appendsAt.get(3), "delivered on the answer it had");
      assertEquals(3, asked.get());
      now.addAndGet(Delivery.RECHECK_RETRY_MS - 1);
      deliverOne(spool, delivery);
      assertEquals(3, asked.get(), "not asked again before the retry time");
      now.addAndGet(1);
      deliverOne(spool, delivery);
      assertEquals(4, asked.get());
      assertEquals(6, appendsAt.size());
      assertEquals(0, spool.pending());
    }
  }

  private void deliverOne(Spool spool, Delivery delivery) throws Exception {
    spool.append(SERIES, now.get() - 1_000, 0.5);
    delivery.deliverSafely();
  }

  private void memoryHost(String host) throws Exception {
    String name = GrpcCleanupExtension.newName();
    inProcessName.put(host + ":1", name);
    grpc.register(
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                new MemoryHostGrpc.MemoryHostImplBase() {
                  @Override
                  public void append(AppendRequest req, StreamObserver<AppendResponse> out) {
                    appendsAt.add(host + ":1");
                    out.onNext(
                        AppendResponse.newBuilder()
                            .setStored(req.getBatchesCount())
                            .setServerTimeMs(now.get())
                            .build());
                    out.onCompleted();
                  }
                })
            .build()
            .start());
  }

  /**
   * Places every series on {@link #placedOn}, saying to ask again after 60 s, as placement does.
   */
  private String nameserver() throws Exception {
    String name = GrpcCleanupExtension.newName();
    grpc.register(
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                new NameserverGrpc.NameserverImplBase() {
                  @Override
                  public void assignSeries(
                      AssignSeriesRequest req, StreamObserver<AssignSeriesResponse> out) {
                    asked.incrementAndGet();
                    if (nameserverDown.get()) {
                      out.onError(Status.UNAVAILABLE.withDescription("down").asRuntimeException());
                      return;
                    }
                    AssignSeriesResponse.Builder b = AssignSeriesResponse.newBuilder();
                    for (String s : req.getSeriesList()) {
                      b.addAssignments(
                          SeriesAssignment.newBuilder()
                              .setSeries(s)
                              .setMemoryHost("memory@" + placedOn.get())
                              .setAddress(placedOn.get() + ":1")
                              .setRecheckAfterMs(60_000));
                    }
                    out.onNext(b.build());
                    out.onCompleted();
                  }
                })
            .build()
            .start());
    return name;
  }
}
