package org.netweather.sensor.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.read.ListAppender;
import io.grpc.Grpc;
import io.grpc.Server;
import io.grpc.TlsServerCredentials;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
import org.netweather.testing.TestCertificates;
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
    String nameserver = nameserverAssigning(address);
    captureWarnings();
    try (Spool spool = Spool.open(dir.resolve("spool"), SpoolOptions.defaults());
        NetWeatherClient client =
            NetWeatherClient.forChannel(grpc.channel(nameserver)).maxAttempts(1).build()) {
      Delivery delivery = new Delivery(spool, client, scheduler, now::get, true);
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

  /** An in-process nameserver that assigns every series to memory@mem1 at {@code address}. */
  private String nameserverAssigning(String address) throws Exception {
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
    return nameserver;
  }

  private void captureWarnings() {
    events.start();
    logger.addAppender(events);
    repeats.setContext(ctx);
    repeats.start();
    // Only this filter, on the fake clock: the process's own folds on real time.
    saved.addAll(ctx.getTurboFilterList());
    ctx.resetTurboFilterList();
    ctx.addTurboFilter(repeats);
  }

  @Test
  void memoryHostRequiringTls_fromAPlaintextSensor_isAWarnSayingTlsIsRequired() throws Exception {
    assumeTrue(TestCertificates.opensslPresent(), "openssl is not installed");
    TestCertificates certs = new TestCertificates(dir);
    Path ca = certs.ca("site");
    Path[] mem = certs.issue("site", "mem1", "mem1", "memory");
    Server tls =
        Grpc.newServerBuilderForPort(
                0,
                TlsServerCredentials.newBuilder()
                    .keyManager(mem[0].toFile(), mem[1].toFile())
                    .trustManager(ca.toFile())
                    .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
                    .build())
            .addService(new HealthStatusManager().getHealthService())
            .build()
            .start();
    try {
      String address = "127.0.0.1:" + tls.getPort();
      String nameserver = nameserverAssigning(address);
      captureWarnings();
      try (Spool spool = Spool.open(dir.resolve("spool"), SpoolOptions.defaults());
          NetWeatherClient client =
              NetWeatherClient.forChannel(grpc.channel(nameserver)).maxAttempts(1).build()) {
        spool.append("cpu.availability:alpha", 1_000, 0.5);
        new Delivery(spool, client, scheduler, now::get, true).deliverSafely();
        List<String> warnings = warnings();
        assertEquals(1, warnings.size(), String.join("\n", warnings));
        assertTrue(
            warnings
                .get(0)
                .startsWith(
                    "cannot deliver to memory@mem1 at "
                        + address
                        + ": TLS required: "
                        + address
                        + " speaks TLS and closed this plaintext connection"),
            warnings.get(0));
      }
    } finally {
      tls.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private List<String> warnings() {
    return events.list.stream()
        .filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }
}
