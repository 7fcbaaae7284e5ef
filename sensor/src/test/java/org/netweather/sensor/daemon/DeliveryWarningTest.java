package org.netweather.sensor.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.read.ListAppender;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.AssignSeriesRequest;
import org.netweather.api.v1.AssignSeriesResponse;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.SeriesAssignment;
import org.netweather.client.NetWeatherClient;
import org.netweather.runtime.logging.RepeatFilter;
import org.netweather.sensor.spool.Spool;
import org.netweather.sensor.spool.SpoolOptions;
import org.netweather.testing.GrpcCleanupExtension;
import org.slf4j.LoggerFactory;

/**
 * A memory-host that cannot be reached is a WARN naming it, the address dialled and the reason,
 * once a minute with a count of the failed attempts in between: the nameserver (a fake) assigns
 * every series to {@code memory@mem1} at a loopback port nothing listens on.
 */
class DeliveryWarningTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();
  @TempDir Path dir;

  private final LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Logger logger = ctx.getLogger(Delivery.class);
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final RepeatFilter repeats = new RepeatFilter(60_000, now::get);
  private final List<TurboFilter> saved = new ArrayList<>();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void tearDown() {
    logger.detachAppender(events);
    ctx.resetTurboFilterList();
    saved.forEach(ctx::addTurboFilter);
    scheduler.shutdownNow();
  }

  @Test
  void unreachableMemoryHost_isAWarnNamingIt_foldedToOneLineAMinuteWithACount() throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    String address = "127.0.0.1:" + deadPort;
    String nameserver = GrpcCleanupExtension.newName();
    grpc.register(
        InProcessServerBuilder.forName(nameserver)
            .addService(
                new NameserverGrpc.NameserverImplBase() {
                  @Override
                  public void assignSeries(
                      AssignSeriesRequest req, StreamObserver<AssignSeriesResponse> out) {
                    AssignSeriesResponse.Builder b = AssignSeriesResponse.newBuilder();
                    req.getSeriesList()
                        .forEach(
                            s ->
                                b.addAssignments(
                                    SeriesAssignment.newBuilder()
                                        .setSeries(s)
                                        .setMemoryHost("memory@mem1")
                                        .setAddress(address)));
                    out.onNext(b.build());
                    out.onCompleted();
                  }
                })
            .build()
            .start());
    events.start();
    logger.addAppender(events);
    repeats.setContext(ctx);
    repeats.start();
    // Only this filter, on the fake clock: the process's own folds on real time.
    saved.addAll(ctx.getTurboFilterList());
    ctx.resetTurboFilterList();
    ctx.addTurboFilter(repeats);

    try (Spool spool = Spool.open(dir.resolve("spool"), SpoolOptions.defaults());
        NetWeatherClient client =
            NetWeatherClient.forChannel(grpc.channel(nameserver)).maxAttempts(1).build()) {
      Delivery delivery = new Delivery(spool, client, scheduler, now::get);
      spool.append("cpu.availability:alpha", 1_000, 0.5);
      spool.append("cpu.availability:alpha", 2_000, 0.6);
      spool.append("memory.free:alpha", 2_000, 1e9);
      // Five attempts within the minute, each after the back-off of the one before.
      for (int i = 0; i < 5; i++) {
        delivery.deliverSafely();
        now.addAndGet(10_000);
      }
      List<String> warnings = warnings();
      assertEquals(1, warnings.size(), String.join("\n", warnings));
      String first = warnings.get(0);
      assertTrue(
          first.startsWith("cannot deliver to memory@mem1 at " + address + ": UNAVAILABLE"), first);
      assertTrue(first.toLowerCase(java.util.Locale.ROOT).contains("connection refused"), first);
      assertTrue(first.endsWith("; 3 measurements wait in the spool"), first);

      now.addAndGet(20_000); // past the minute
      delivery.deliverSafely();
      warnings = warnings();
      assertEquals(3, warnings.size(), events.list.toString());
      assertEquals(
          "previous message repeated 4 more times in the last 60 s: ["
              + address
              + "] cannot deliver to {} at {}: {}; {} measurements wait in the spool",
          warnings.get(1));
      assertTrue(
          warnings.get(2).startsWith("cannot deliver to memory@mem1 at " + address),
          warnings.get(2));
      assertEquals(3, spool.pending());
      assertEquals(0, delivery.delivered());
    }
  }

  private List<String> warnings() {
    return events.list.stream()
        .filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }
}
