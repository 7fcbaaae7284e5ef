package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.HeartbeatRequest;
import org.netweather.api.v1.HeartbeatResponse;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.PutCliqueRequest;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.WatchCliquesRequest;
import org.netweather.api.v1.WatchCliquesResponse;

/**
 * The nameserver's cost at N sensors: a nameserver in a process of its own on a loopback port; N
 * registrations as sensors make them, one WatchCliques stream each (16-host cliques), then
 * heartbeats at TTL/3 as the Registrar sends them, spread evenly. Prints heartbeats/s and the
 * nameserver process's CPU (utime + stime from /proc) as a fraction of one core.
 *
 * <pre>
 *   ./mvnw -B -q test -pl nameserver -am -Dtest=HeartbeatLoadHarness \
 *       -Dsurefire.failIfNoSpecifiedTests=false -Dnws.load=true \
 *       [-Dnws.load.sensors=10000 -Dnws.load.ttl=60 -Dnws.load.seconds=60]
 * </pre>
 */
@EnabledIfSystemProperty(named = "nws.load", matches = "true")
class HeartbeatLoadHarness {
  private static final int CHANNELS = 16;
  private static final long CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

  @TempDir Path dir;

  @Test
  void heartbeatsAtScale() throws Exception {
    int sensors = Integer.getInteger("nws.load.sensors", 10_000);
    int ttl = Integer.getInteger("nws.load.ttl", 60);
    int seconds = Integer.getInteger("nws.load.seconds", 60);
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                LoopbackNameserver.class.getName(),
                dir.resolve("ns").toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    String line;
    do {
      line = out.readLine();
    } while (line != null && !line.startsWith("PORT "));
    int port = Integer.parseInt(line.substring(5));
    List<ManagedChannel> channels = new ArrayList<>();
    try {
      for (int i = 0; i < CHANNELS; i++) {
        channels.add(NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build());
      }
      String[] leases = new String[sensors];
      for (int i = 0; i < sensors; i++) {
        String host = String.format("h%05d", i);
        leases[i] =
            NameserverGrpc.newBlockingStub(channels.get(i % CHANNELS))
                .register(
                    RegisterRequest.newBuilder()
                        .setTtlSeconds(ttl)
                        .setRegistration(
                            Registration.newBuilder()
                                .setName("sensor@" + host)
                                .setKind("sensor")
                                .setAddress(host + ":8060")
                                .putAttributes("host", host)
                                .putAttributes("probe", host + ":8061"))
                        .build())
                .getLeaseId();
      }
      var admin = NameserverGrpc.newBlockingStub(channels.get(0));
      for (int c = 0; c < sensors / 16; c++) {
        Clique.Builder b = Clique.newBuilder().setName("c" + c).setPeriodSeconds(60);
        for (int m = 0; m < 16; m++) {
          b.addMembers(String.format("h%05d", c * 16 + m));
        }
        admin.putClique(PutCliqueRequest.newBuilder().setClique(b).build());
      }
      AtomicLong cliqueUpdates = new AtomicLong();
      for (int i = 0; i < sensors; i++) {
        NameserverGrpc.newStub(channels.get(i % CHANNELS))
            .watchCliques(
                WatchCliquesRequest.newBuilder().setHost(String.format("h%05d", i)).build(),
                new StreamObserver<WatchCliquesResponse>() {
                  @Override
                  public void onNext(WatchCliquesResponse r) {
                    cliqueUpdates.incrementAndGet();
                  }

                  @Override
                  public void onError(Throwable t) {}

                  @Override
                  public void onCompleted() {}
                });
      }
      while (cliqueUpdates.get() < sensors) {
        Thread.sleep(50);
      }
      // Registering took a while (each registration is forced to disk): renew every lease once,
      // registering again those that lapsed meanwhile, as the Registrar would.
      int lapsed = 0;
      for (int i = 0; i < sensors; i++) {
        var stub = NameserverGrpc.newBlockingStub(channels.get(i % CHANNELS));
        try {
          stub.heartbeat(HeartbeatRequest.newBuilder().setLeaseId(leases[i]).build());
        } catch (io.grpc.StatusRuntimeException e) {
          String host = String.format("h%05d", i);
          leases[i] =
              stub.register(
                      RegisterRequest.newBuilder()
                          .setTtlSeconds(ttl)
                          .setRegistration(
                              Registration.newBuilder()
                                  .setName("sensor@" + host)
                                  .setKind("sensor")
                                  .setAddress(host + ":8060")
                                  .putAttributes("host", host)
                                  .putAttributes("probe", host + ":8061"))
                          .build())
                  .getLeaseId();
          lapsed++;
        }
      }
      long idleStart = cpuTicks(child.pid());
      int idleSeconds = 10;
      Thread.sleep(idleSeconds * 1000L);
      double idle =
          (cpuTicks(child.pid()) - idleStart) / (double) CLOCK_TICKS_PER_SECOND / idleSeconds;

      double rate = sensors / (ttl / 3.0);
      AtomicLong ok = new AtomicLong();
      AtomicLong failed = new AtomicLong();
      Semaphore inFlight = new Semaphore(2_000);
      StreamObserver<HeartbeatResponse> count =
          new StreamObserver<>() {
            @Override
            public void onNext(HeartbeatResponse r) {
              ok.incrementAndGet();
            }

            @Override
            public void onError(Throwable t) {
              failed.incrementAndGet();
              inFlight.release();
            }

            @Override
            public void onCompleted() {
              inFlight.release();
            }
          };
      List<NameserverGrpc.NameserverStub> stubs =
          channels.stream().map(NameserverGrpc::newStub).toList();
      int warmup = Integer.getInteger("nws.load.warmup", 20);
      long start = System.nanoTime();
      long cpuStart = 0;
      long okStart = 0;
      long sent = 0;
      for (; ; ) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        if (cpuStart == 0 && elapsed >= warmup) {
          cpuStart = cpuTicks(child.pid());
          okStart = ok.get();
        }
        if (elapsed >= warmup + seconds) {
          break;
        }
        long due = (long) (elapsed * rate);
        for (; sent < due; sent++) {
          int i = (int) (sent % sensors);
          inFlight.acquire();
          stubs
              .get(i % CHANNELS)
              .heartbeat(HeartbeatRequest.newBuilder().setLeaseId(leases[i]).build(), count);
        }
        Thread.sleep(5);
      }
      long cpu = cpuTicks(child.pid()) - cpuStart;
      long beats = ok.get() - okStart;
      double cpuFraction = cpu / (double) CLOCK_TICKS_PER_SECOND / seconds;
      System.out.printf(
          "nameserver: %d sensors, ttl %d s (heartbeat every %.1f s), "
              + "%d clique watches open, %d leases registered again after setup%n",
          sensors, ttl, ttl / 3.0, sensors, lapsed);
      System.out.printf("  idle (watches open, no heartbeats): %.3f core%n", idle);
      System.out.printf(
          "  heartbeats/s %.0f (target %.0f), failed %d%n",
          beats / (double) seconds, rate, failed.get());
      System.out.printf(
          "  nameserver CPU %.3f core (%.1f us per heartbeat)%n",
          cpuFraction, cpuFraction * 1e6 / (beats / (double) seconds));
      assertEquals(0, failed.get());
    } finally {
      for (ManagedChannel c : channels) {
        c.shutdownNow();
        c.awaitTermination(5, TimeUnit.SECONDS);
      }
      child.getOutputStream().close();
      if (!child.waitFor(10, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
  }

  /** utime + stime of a process, in clock ticks. */
  private static long cpuTicks(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }
}
